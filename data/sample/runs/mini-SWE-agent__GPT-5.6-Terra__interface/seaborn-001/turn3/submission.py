"""Per-group bookkeeping consistent with seaborn's ordering and typing."""
import numpy as np
import pandas as pd

from seaborn.utils import remove_na
from seaborn._core.level_colors import ordered_levels
from seaborn._core.frame_levels import column_kinds


def group_sizes(data, by, order=None):
    counts = data[by].value_counts()
    return [
        (level, int(counts[level]) if level in counts.index else 0)
        for level in ordered_levels(data[by], order)
    ]


def center_within_groups(data, value, by, order=None):
    if column_kinds(data[[value]])[value] != "numeric":
        raise TypeError(f"{value!r} is not a numeric column")
    values = data[value].to_numpy(dtype=float)
    groups = data[by].to_numpy()
    out = [None] * len(data)
    for level in ordered_levels(data[by], order):
        mask = groups == level
        kept = remove_na(values[mask])
        if not len(kept):
            continue
        mean = float(np.mean(kept))
        for i in np.flatnonzero(mask):
            if not pd.isna(values[i]):
                out[i] = round(float(values[i]) - mean, 4)
    return out
