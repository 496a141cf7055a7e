"""The former home of the conformance kit's pytest plugin, now the top-level ``ember_pytest``
(so that loading it imports no ember). ``-p ember.testing.plugin`` names the plugin
registered by ember-core's ``pytest11`` entry point; where that entry point is not installed,
it imports this module, whose hooks are ember_pytest's."""

from ember_pytest import (  # noqa: F401
    ember_backend,
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_unconfigure,
)
