"""Ember's release and the backend API version that plugins declare against."""

__version__ = "0.1.0"

#: (major, minor) of the backend contract in ``ember.hookspecs``. A plugin built for
#: ``major.minor`` works with a core of the same major and at least that minor.
API_VERSION = (1, 2)
