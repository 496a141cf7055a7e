"""Tensors, parameters and dtypes (MindSpore's ``mindspore.common``)."""
