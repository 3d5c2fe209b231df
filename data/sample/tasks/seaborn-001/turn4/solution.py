import numpy as np

from seaborn.utils import ci
from seaborn._core.group_stats import group_sizes, center_within_groups


def centered_spread(data, value, by, order=None):
    """One (level, lowest, highest) triple of group-centered values per level with data."""
    centered = center_within_groups(data, value, by, order)
    groups = data[by].tolist()
    result = []
    for level, count in group_sizes(data, by, order):
        points = [c for g, c in zip(groups, centered) if g == level and c is not None]
        if count == 0 or not points:
            continue
        result.append((level, round(min(points), 4), round(max(points), 4)))
    return result


def group_intervals(data, value, by, which=95, order=None):
    """One (level, low, high) percentile interval of ``data[value]`` per level with data."""
    result = []
    for level, count in group_sizes(data, by, order):
        if count == 0:
            continue
        points = data.loc[data[by] == level, value].dropna().to_numpy(dtype=float)
        if len(points) == 0:
            continue
        low, high = ci(points, which)
        result.append((level, round(float(low), 4), round(float(high), 4)))
    return result
