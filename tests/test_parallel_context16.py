"""MindSpore 1.6's private parallel modules that its parallel tests drive: the auto-parallel
context object, the cost-model context, GlobalComm's import path, and user primitives in
graphs (their infer rule and ``get_bprop``)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn, ops
from ember.common import dtype as mstype
from ember.common.api import _cell_graph_executor
from ember.communication import _comm_helper, management
from ember.ops.primitive import PrimitiveWithInfer, prim_attr_register
from ember.parallel import _cost_model_context as cost_model
from ember.parallel._auto_parallel_context import auto_parallel_context


@pytest.fixture(autouse=True)
def _fresh_contexts():
    context.reset_auto_parallel_context()
    cost_model.reset_cost_model_context()
    yield
    context.reset_auto_parallel_context()
    cost_model.reset_cost_model_context()


def test_the_context_object_reads_and_writes_the_auto_parallel_context():
    apc = auto_parallel_context()
    assert not apc.get_device_num_is_set() and not apc.get_parameter_broadcast_is_set()
    apc.set_device_num(4)
    apc.set_enable_all_reduce_fusion(enable_all_reduce_fusion=False)  # 1.6's argument name
    context.set_auto_parallel_context(parameter_broadcast=False, search_mode="sharding_propagation",
                                      communi_parallel_mode="same_server_group_parallel")
    assert context.get_auto_parallel_context("device_num") == 4
    assert apc.get_device_num_is_set() and apc.get_parameter_broadcast_is_set()
    assert not apc.get_global_rank_is_set()
    assert apc.get_enable_all_reduce_fusion() is False
    assert apc.get_strategy_search_mode() == "sharding_propagation"
    assert apc.get_communi_parallel_mode() == "same_server_group_parallel"
    apc.set_all_reduce_fusion_split_indices([2, 5])
    assert context.get_auto_parallel_context("all_reduce_fusion_config") == [2, 5]
    assert apc.get_all_reduce_fusion_split_indices() == [2, 5]
    apc.reset()
    assert apc.get_device_num() == 1 and not apc.get_device_num_is_set()
    assert apc.get_enable_all_reduce_fusion() is True
    assert apc.get_communi_parallel_mode() == "all_group_parallel"
    assert apc.get_optimizer_weight_shard_size() == -1
    with pytest.raises(AttributeError):
        apc.set_no_such_key(1)


@pytest.mark.parametrize("kwargs, error", [
    ({"communi_parallel_mode": "wrong_mode"}, ValueError),
    ({"optimizer_weight_shard_size": 1}, ValueError),
    ({"enable_alltoall": 1}, TypeError),
    ({"device_num": 4097}, ValueError),
])
def test_bad_auto_parallel_values_raise_and_change_nothing(kwargs, error):
    with pytest.raises(error):
        context.set_auto_parallel_context(global_rank=2, **kwargs)
    assert context.get_auto_parallel_context("global_rank") == 0


def test_cost_model_context_has_mindspore_s_defaults_and_checks():
    # The defaults of MindSpore 1.6's costmodel_context.h and allreduce_fusion.h (Ascend).
    assert cost_model.get_cost_model_context("device_memory_capacity") == 16.0 * 2**30
    assert cost_model.get_cost_model_context("costmodel_gamma") == 0.001
    assert cost_model.get_cost_model_context("costmodel_communi_const") == 3072.0
    cost_model.set_cost_model_context(costmodel_gamma=0.5, run_phase=1)
    assert cost_model.get_cost_model_context("costmodel_gamma") == 0.5
    with pytest.raises(ValueError, match="run_phase"):
        cost_model.set_cost_model_context(costmodel_alpha=2.0, run_phase=2)
    assert cost_model.get_cost_model_context("costmodel_alpha") == 1.0
    with pytest.raises(TypeError):
        cost_model.set_cost_model_context(costmodel_beta=400)
    with pytest.raises(ValueError, match="multi_subgraphs"):
        cost_model.set_cost_model_context(multi_subgraphs=True)
    cost_model._set_multi_subgraphs()
    cost_model._set_algo_single_loop(True)
    assert cost_model._get_multi_subgraphs() and cost_model._get_algo_single_loop()
    with pytest.raises(TypeError):
        cost_model._set_algo_single_loop(1)
    cost_model.reset_cost_model_context()
    assert cost_model.get_cost_model_context("run_phase") == 0
    assert not cost_model._get_multi_subgraphs() and not cost_model._get_algo_single_loop()


def test_global_comm_has_its_16_import_path():
    assert _comm_helper.GlobalComm is management.GlobalComm


class _RowSum(PrimitiveWithInfer):
    """A user primitive as MindSpore's tests write them: an infer rule and get_bprop, no
    kernel (compiled, never run)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x_shape):
        return x_shape[:1]

    def infer_dtype(self, x_dtype):
        return x_dtype

    def get_bprop(self):
        expand, broadcast = ops.ExpandDims(), ops.BroadcastTo

        def bprop(x, out, dout):
            return (broadcast(x.shape)(expand(dout, 1)),)
        return bprop


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.row_sum = _RowSum()

    def construct(self, x):
        return self.row_sum(x * x)


def test_a_user_primitive_compiles_from_its_infer_rule():
    net = _Net()
    net.set_auto_parallel()
    assert net.get_flags()["auto_parallel"] is True
    phase = _cell_graph_executor.compile(net, Tensor(np.ones((3, 5), np.float32)))
    (out,) = _cell_graph_executor.graphs[phase].outputs
    assert out.shape == (3,) and out.dtype == mstype.float32


def test_a_user_primitive_differentiates_with_its_get_bprop():
    class Grad(nn.Cell):
        def __init__(self):
            super().__init__()
            self.grad = ops.GradOperation()(_Net())

        def construct(self, x):
            return self.grad(x)

    phase = _cell_graph_executor.compile(Grad(), Tensor(np.ones((2, 3), np.float32)))
    graph = _cell_graph_executor.graphs[phase]
    (dx,) = graph.outputs
    assert dx.shape == (2, 3)
    names = [node.prim.name for node in graph.nodes]
    assert "ExpandDims" in names and "BroadcastTo" in names  # the ops of its get_bprop


class _AssignNet(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op
        self.p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="p")

    def construct(self, x):
        return self.op(self.p, x) * 3


@pytest.mark.parametrize("op, dp", [(ops.Assign(), 3.0), (ops.AssignAdd(), 0.0),
                                    (ops.AssignSub(), 0.0)])
def test_assignments_differentiate_as_mindspore_16(op, dp):
    # MindSpore 1.6: Assign passes dout to the variable; AssignAdd/AssignSub give no
    # gradient; the assigned value gets none.
    net = _AssignNet(op)
    grad = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())
    (dx,), (dparam,) = grad(Tensor(np.full((2, 2), 5.0, np.float32)))
    np.testing.assert_array_equal(dx.asnumpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(dparam.asnumpy(), np.full((2, 2), dp))
