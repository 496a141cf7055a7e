"""The op tests check backward rules with the conformance kit's finite differences."""

from ember.testing.gradcheck import check_grad  # noqa: F401
