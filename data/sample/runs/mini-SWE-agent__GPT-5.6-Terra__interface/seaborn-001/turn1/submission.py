"""Map the levels of a categorical variable to palette colors."""
import numpy as np
import pandas as pd

from seaborn._core.rules import categorical_order
from seaborn.palettes import color_palette
from seaborn.utils import relative_luminance


def ordered_levels(values, order=None):
    series = values if isinstance(values, pd.Series) else pd.Series(list(values))
    levels = categorical_order(series, order)
    out = []
    for level in levels:
        # categorical_order keeps NumPy scalars; hand back plain Python objects
        out.append(level.item() if isinstance(level, np.generic) else level)
    return out


def level_colors(values, palette=None, order=None):
    levels = ordered_levels(values, order)
    colors = color_palette(palette, n_colors=len(levels))
    pairs = []
    for level, color in zip(levels, colors):
        pairs.append((level, tuple(round(float(x), 4) for x in color[:3])))
    return pairs


def label_colors(values, palette=None, order=None):
    # same threshold as seaborn.matrix._HeatMapper._annotate_heatmap
    return [
        (level, "black" if relative_luminance(rgb) > .408 else "white")
        for level, rgb in level_colors(values, palette, order)
    ]
