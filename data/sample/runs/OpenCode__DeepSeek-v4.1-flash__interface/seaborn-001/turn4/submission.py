import numpy as np
import pandas as pd

from seaborn._core.group_stats import group_sizes


def centered_spread(data, value, by, order=None):
    result = []
    for level, count in group_sizes(data, by, order):
        if count == 0:
            continue
        values = data.loc[data[by] == level, value].astype(float)
        values = values[pd.notnull(values)]
        if values.empty:
            continue
        centered = values - values.mean()
        result.append((level, round(float(centered.min()), 4), round(float(centered.max()), 4)))
    return result


def group_intervals(data, value, by, which=95, order=None):
    result = []
    for level, count in group_sizes(data, by, order):
        if count == 0:
            continue
        values = data.loc[data[by] == level, value].dropna().to_numpy(dtype=float)
        if len(values) == 0:
            continue
        low = np.percentile(values, 50 - which / 2)
        high = np.percentile(values, 50 + which / 2)
        result.append((level, round(float(low), 4), round(float(high), 4)))
    return result
