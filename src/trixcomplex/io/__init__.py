"""Files and text: JSON conversion, saved states, match records, schemas, pictures, the scoresheet.

Also the RL action numbering (:mod:`trixcomplex.io.actions`).  Above
:mod:`trixcomplex.knowledge` in the layers (docs/engine.rst, "Layers").
"""
