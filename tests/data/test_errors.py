import pytest

from fairbook.data import DataSourceError
from fairbook.data.errors import DataSourceError as Direct


def test_is_runtime_error_and_reexported():
    assert Direct is DataSourceError
    assert issubclass(DataSourceError, RuntimeError)
    with pytest.raises(RuntimeError, match="delete X"):
        raise DataSourceError("bad digest; delete X")
