"""DataFrames made from column arrays as they are.

`pd.DataFrame({name: pd.Series(array, dtype=...)})` builds a Series per column and then
aligns their indexes: about 0.1 ms a column, 5 ms for a chunk of feature rows (68 columns),
more than the arrays themselves cost. The arrays here are already what the columns hold
(float64 or object, one length), so they become the frame's columns directly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def frame_of_arrays(arrays: Sequence[np.ndarray], columns: Sequence[str]) -> pd.DataFrame:
    """The DataFrame (RangeIndex) whose columns are these 1-D arrays of one length, with
    their dtypes: an object array stays object (pandas >= 3 would infer its `str` dtype
    from a dict of arrays). The same frame as the plain Series-per-column construction
    (tests/features/test_fast_paths.py); that construction is the fallback should pandas
    drop its `_from_arrays`."""
    n = len(arrays[0]) if len(arrays) else 0
    make = getattr(pd.DataFrame, "_from_arrays", None)
    if make is not None:
        try:
            return make(list(arrays), columns=pd.Index(list(columns)), index=pd.RangeIndex(n),
                        verify_integrity=False)
        except TypeError:  # another signature: the plain construction
            pass
    return plain_frame(arrays, columns)


def plain_frame(arrays: Sequence[np.ndarray], columns: Sequence[str]) -> pd.DataFrame:
    """`frame_of_arrays` the plain way: a Series of the array's dtype per column."""
    return pd.DataFrame({name: pd.Series(a, dtype=a.dtype) for name, a in zip(columns, arrays)},
                        columns=list(columns))
