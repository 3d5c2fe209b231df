import numpy as np
import pandas as pd

from seaborn._core.rules import categorical_order, variable_type


def group_sizes(data, by, order=None):
    column = data[by]
    levels = categorical_order(column, order)
    sizes = []
    for level in levels:
        if isinstance(level, np.generic):
            level = level.item()
        sizes.append((level, int((column == level).sum())))
    return sizes


def center_within_groups(data, value, by, order=None):
    if variable_type(data[value]) != "numeric":
        raise TypeError(f"column {value!r} is not numeric")
    values = data[value].astype(float)
    groups = data[by]
    centered = [None] * len(data)
    for level in categorical_order(groups, order):
        mask = (groups == level).to_numpy()
        present = values[mask][pd.notnull(values[mask])]
        if len(present) == 0:
            continue
        mean = present.mean()
        for i in np.flatnonzero(mask):
            if pd.notnull(values.iloc[i]):
                centered[i] = round(float(values.iloc[i] - mean), 4)
    return centered
