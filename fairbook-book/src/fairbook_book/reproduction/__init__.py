"""Do the recordings reproduce here, and how far is this machine from them?

The book's numbers are of two kinds (``../DESIGN.md``, *Reproducible, and honest about
where*):

* **invariants** — counts, enumerations, closed forms, loaders — give the same bits on
  every machine and are checked bit for bit everywhere;
* numbers **computed by optimisation or by floating-point reduction** (trained networks,
  sampled studies) give the same bits only under the same *kernel signature*
  (:mod:`.signature`: PyTorch's CPU kernel level, oneDNN's and MKL's instruction sets, the
  BLAS library and its core type, the torch and numpy versions, the device). Under another
  signature they are compared within a tolerance measured across signatures, and every
  verdict derived from them must be equal; a flipped verdict is reported as a flip, never
  absorbed by the tolerance (:mod:`.compare`).

:mod:`fairbook_book.tooling.verify` holds one check per recording: it re-runs the recording's
cheapest unit(s) here and compares them with the committed tables. ``fairbook-book verify``
prints the outcome, and ``make test`` runs every check (``tests/book/tooling/test_verify.py``).
"""

from .compare import Comparison, Tolerance, compare_tables
from .signature import describe_signature, kernel_signature, signature_of, signatures_differ

__all__ = [
    "Comparison",
    "Tolerance",
    "compare_tables",
    "describe_signature",
    "kernel_signature",
    "signature_of",
    "signatures_differ",
]
