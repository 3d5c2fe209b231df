import colorsys

import pandas as pd
from matplotlib.colors import to_rgb

from seaborn._core.rules import categorical_order, variable_type
from seaborn._core.level_colors import level_colors


def column_kinds(frame):
    kinds = {}
    for name in frame.columns:
        kind = variable_type(frame[name], boolean_type="categorical")
        kinds[name] = "categorical" if kind == "boolean" else str(kind)
    return kinds


def categorical_levels(frame, order=None):
    order = order or {}
    result = {}
    for name, kind in column_kinds(frame).items():
        if kind != "categorical":
            continue
        levels = categorical_order(frame[name], order.get(name))
        result[name] = [lv.item() if hasattr(lv, "item") else lv for lv in levels]
    return result


def muted_level_colors(values, prop, palette=None, order=None):
    if prop < 0 or prop > 1:
        raise ValueError("prop must be between 0 and 1")
    result = []
    for level, rgb in level_colors(values, palette, order):
        h, l, s = colorsys.rgb_to_hls(*to_rgb(rgb))
        muted = colorsys.hls_to_rgb(h, l, s * prop)
        result.append((level, tuple(round(float(c), 4) for c in muted)))
    return result
