"""hpcdemo: a small teaching package built from minicluster's sources for its wheelhouse."""

__version__ = "1.0"
