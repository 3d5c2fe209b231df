"""Census of a data frame's columns with seaborn's typing rules."""
from seaborn._core.rules import variable_type
from seaborn.utils import desaturate
from seaborn._core.level_colors import ordered_levels, level_colors


def column_kinds(frame):
    kinds = {}
    for column in frame.columns:
        kind = str(variable_type(frame[column], boolean_type="categorical"))
        kinds[column] = "categorical" if kind == "boolean" else kind
    return kinds


def categorical_levels(frame, order=None):
    order = order or {}
    levels = {}
    for column, kind in column_kinds(frame).items():
        if kind == "categorical":
            levels[column] = ordered_levels(frame[column], order.get(column))
    return levels


def muted_level_colors(values, prop, palette=None, order=None):
    if not 0 <= prop <= 1:
        raise ValueError("prop must be between 0 and 1")
    return [
        (level, tuple(round(float(x), 4) for x in desaturate(rgb, prop)))
        for level, rgb in level_colors(values, palette, order)
    ]
