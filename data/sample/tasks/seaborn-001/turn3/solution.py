import numpy as np
import pandas as pd

from seaborn.utils import remove_na
from seaborn._core.level_colors import ordered_levels
from seaborn._core.frame_levels import column_kinds


def group_sizes(data, by, order=None):
    """One (level, count) pair per level of ``data[by]`` in seaborn order; nulls are not counted."""
    levels = ordered_levels(data[by], order)
    counts = data[by].value_counts()
    result = []
    for level in levels:
        count = int(counts[level]) if level in counts.index else 0
        result.append((level, count))
    return result


def center_within_groups(data, value, by, order=None):
    """Values of ``data[value]`` minus their group mean, in row order (None for null rows)."""
    if column_kinds(data[[value]])[value] != "numeric":
        raise TypeError(f"column {value!r} is not numeric")
    centered = [None] * len(data)
    groups = data[by].to_numpy()
    values = data[value].to_numpy(dtype=float)
    for level in ordered_levels(data[by], order):
        mask = groups == level
        present = remove_na(values[mask])
        if len(present) == 0:
            continue
        mean = float(np.mean(present))
        for i in np.flatnonzero(mask):
            if not pd.isna(values[i]):
                centered[i] = round(float(values[i]) - mean, 4)
    return centered
