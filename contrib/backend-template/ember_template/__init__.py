"""ember-template: a worked example of a third-party ember backend (device_target "Template").

``plugin`` declares the backend and creates its executors, ``device`` holds its arrays,
``kernels`` is its kernel table, ``executor`` runs primitives one by one (PyNative mode) and
``graph`` runs compiled graphs (Graph mode). See README.md and ember's
docs/writing-a-backend.md.
"""
