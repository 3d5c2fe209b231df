"""Per-group spread and percentile intervals."""
import numpy as np

from seaborn._core.group_stats import group_sizes, center_within_groups


def centered_spread(data, value, by, order=None):
    centered = center_within_groups(data, value, by, order)
    labels = data[by].tolist()
    rows = []
    for level, n in group_sizes(data, by, order):
        points = [c for g, c in zip(labels, centered) if g == level and c is not None]
        if n and points:
            rows.append((level, round(min(points), 4), round(max(points), 4)))
    return rows


def group_intervals(data, value, by, which=95, order=None):
    rows = []
    for level, n in group_sizes(data, by, order):
        if not n:
            continue
        points = data.loc[data[by] == level, value].dropna().to_numpy(dtype=float)
        if not len(points):
            continue
        low, high = np.nanpercentile(points, [50 - which / 2, 50 + which / 2])
        rows.append((level, round(float(low), 4), round(float(high), 4)))
    return rows
