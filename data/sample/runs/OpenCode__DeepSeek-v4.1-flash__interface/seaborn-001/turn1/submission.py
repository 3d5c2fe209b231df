import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb

from seaborn._core.rules import categorical_order
from seaborn.utils import relative_luminance

# seaborn "deep" palette
DEEP = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3",
        "#937860", "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD"]


def ordered_levels(values, order=None):
    if not isinstance(values, pd.Series):
        values = pd.Series(list(values))
    result = []
    for level in categorical_order(values, order):
        if isinstance(level, np.generic):
            level = level.item()
        result.append(level)
    return result


def _palette_colors(palette, n):
    if palette is None:
        cycle = [c["color"] for c in mpl.rcParams["axes.prop_cycle"]]
        return [to_rgb(cycle[i % len(cycle)]) for i in range(n)]
    if palette == "deep":
        return [to_rgb(DEEP[i % len(DEEP)]) for i in range(n)]
    if isinstance(palette, str):
        cmap = mpl.colormaps[palette]
        return [to_rgb(cmap(i / max(n - 1, 1))) for i in range(n)]
    colors = list(palette)
    return [to_rgb(colors[i % len(colors)]) for i in range(n)]


def level_colors(values, palette=None, order=None):
    levels = ordered_levels(values, order)
    colors = _palette_colors(palette, len(levels))
    return [(level, tuple(round(float(c), 4) for c in rgb)) for level, rgb in zip(levels, colors)]


def label_colors(values, palette=None, order=None):
    result = []
    for level, rgb in level_colors(values, palette, order):
        result.append((level, "black" if relative_luminance(rgb) > 0.408 else "white"))
    return result
