"""Chapter-level experiments: the functions a chapter calls, built on the core modules."""
