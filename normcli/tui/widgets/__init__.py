"""The reader's widgets: the norm tree, the section view, the side list and search hits."""
