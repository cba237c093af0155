"""What a seat knows: its view, the worlds consistent with it, the events it sees, the ledger.

Above :mod:`trixcomplex.core` in the layers (docs/engine.rst, "Layers").
"""
