"""Ember's Ascend backend (device_target "Ascend") on CANN's runtime and aclnn operators."""
