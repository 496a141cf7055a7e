"""Distributed training without a launch: errors before init() and outside mpirun, the launch
values in the auto-parallel context, unsupported parallel modes, fusion buckets, per-rank
files. Collectives on real processes: tests/distributed."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn, ops
from ember import communication as comm
from ember.common import dtype as mstype
from ember.communication import management
from ember.nn.wrap.grad_reducer import fusion_buckets
from ember.train import LossMonitor, Model, ModelCheckpoint
from ember.train.callback import CallbackParams, RunContext


@pytest.fixture(autouse=True)
def _fresh_parallel_context():
    context.reset_auto_parallel_context()
    yield
    context._set_launch(None, None)
    context.reset_auto_parallel_context()


def test_init_outside_a_launch_says_how_to_launch(monkeypatch):
    for name in management._LAUNCH_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.argv", ["train.py", "--parallel", "data"])
    with pytest.raises(RuntimeError, match=r"init: this process was not started by an MPI "
                       r"launcher.*`mpirun (--allow-run-as-root --oversubscribe )?-n 2 \S*python"
                       r"\S* train.py --parallel data`"):
        comm.init()
    assert not comm.GlobalComm.INITED
    with pytest.raises(ValueError, match=r"init: backend_name must be one of \['hccl', 'nccl'\]"):
        comm.init("gloo")


@pytest.mark.parametrize("call, api", [
    (lambda: ops.AllReduce()(Tensor(np.ones(2, np.float32))), "AllReduce"),
    (lambda: ops.AllGather()(Tensor(np.ones(2, np.float32))), "AllGather"),
    (lambda: comm.get_rank(), "get_rank"),
    (lambda: comm.get_group_size(), "get_group_size"),
    (lambda: comm.create_group("g", [0]), "create_group"),
    (lambda: nn.DistributedGradReducer([Parameter(Tensor(1.0), "w")]), "DistributedGradReducer"),
])
def test_before_init_every_call_says_to_call_init(call, api):
    with pytest.raises(RuntimeError, match=rf"{api}: call ember.communication.init\(\) first"):
        call()


def test_collective_attributes_are_checked():
    with pytest.raises(ValueError, match=r"AllReduce: op must be one of 'sum', 'max', 'min', "
                       r"'prod' \(ReduceOp\), but got 'mean'"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="AllGather: group must be a str, but got int"):
        ops.AllGather(group=0)
    with pytest.raises(ValueError, match="Broadcast: root_rank must be an int >= 0"):
        ops.Broadcast(-1)


def test_the_launch_gives_device_num_and_global_rank_unless_they_contradict_it():
    context._set_launch(4, 3)
    assert context.get_auto_parallel_context("device_num") == 4
    assert context.get_auto_parallel_context("global_rank") == 3
    with pytest.raises(ValueError, match=r"device_num=8 contradicts the MPI launch, which "
                       r"started 4 processes \(mpirun -n 4\)"):
        context.set_auto_parallel_context(device_num=8)
    context.set_auto_parallel_context(device_num=4)  # the same: accepted
    context.reset_auto_parallel_context()
    assert context.get_auto_parallel_context("device_num") == 4
    context._set_launch(None, None)
    context.set_auto_parallel_context(device_num=8)
    with pytest.raises(ValueError, match=r"device_num=8 contradicts the MPI launch, which "
                       r"started 2 processes"):
        context._set_launch(2, 0)
    assert context.get_auto_parallel_context("device_num") == 8


def _train_cell() -> nn.TrainOneStepCell:
    net = nn.WithLossCell(nn.Dense(3, 2), nn.MSELoss())
    return nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))


UNSUPPORTED = [
    ({"parallel_mode": "semi_auto_parallel"}, "parallel_mode='semi_auto_parallel' is not "
     "supported by ember: it runs parallel_mode 'stand_alone', 'data_parallel', "
     "'hybrid_parallel'"),
    ({"parallel_mode": "auto_parallel"}, "parallel_mode='auto_parallel' is not supported"),
    ({"pipeline_stages": 2}, "pipeline_stages=2 is not supported by ember; it runs only "
     "pipeline_stages=1"),
    ({"enable_parallel_optimizer": True}, "enable_parallel_optimizer=True is not supported"),
]


# PYNATIVE_MODE refuses the two auto-parallel modes as soon as they are set (test_context.py)
@pytest.mark.parametrize("setting, message, mode", [
    (setting, message, mode) for setting, message in UNSUPPORTED
    for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE)
    if mode == context.GRAPH_MODE or "parallel_mode" not in setting])
def test_unsupported_parallel_settings_raise_at_the_first_step(setting, message, mode):
    context.set_context(mode=mode)
    try:
        context.set_auto_parallel_context(**setting)
        cell = _train_cell()
        x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.ones((4, 2), np.float32))
        with pytest.raises(RuntimeError, match=f"TrainOneStepCell: {message}".replace(
                "(", r"\(").replace(")", r"\)")):
            cell(x, y)
        with pytest.raises(RuntimeError, match="Model.train: " + message.split(" is ")[0]):
            Model(cell).train(1, None)
    finally:
        context.set_context(mode=context.GRAPH_MODE)


def _params(*specs: tuple[tuple[int, ...], mstype.Type]) -> list[Parameter]:
    return [Parameter(Tensor(np.zeros(shape, dtype.np_dtype)), f"p{i}")
            for i, (shape, dtype) in enumerate(specs)]


def test_fusion_buckets_follow_the_context():
    mb = 2**20 // 4  # float32 elements in one MB
    params = _params(((mb,), mstype.float32), ((mb,), mstype.float32), ((3,), mstype.float16),
                     ((2, mb), mstype.float32), ((5,), mstype.float32))
    assert fusion_buckets(params) == [[0, 1, 3, 4], [2]]  # auto: 64 MB, one dtype a bucket
    assert fusion_buckets(params, fusion=False) == [[0], [1], [2], [3], [4]]
    context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 2}})
    assert fusion_buckets(params) == [[0, 1], [2], [3], [4]]
    context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "index",
                                                                 "config": [1, 3]}})
    assert fusion_buckets(params) == [[0], [1], [2], [3, 4]]
    context.set_auto_parallel_context(all_reduce_fusion_config=[2])
    assert fusion_buckets(params) == [[0, 1], [2], [3, 4]]


def test_several_processes_write_their_own_files_and_lines(tmp_path, capsys):
    context._set_launch(2, 1)
    assert ModelCheckpoint(directory=str(tmp_path)).directory == str(tmp_path / "rank_1")
    params = CallbackParams(net_outputs=Tensor(np.float32(0.5)), cur_step_num=3, batch_num=10,
                            cur_epoch_num=1)
    LossMonitor(1).step_end(RunContext(params))
    assert capsys.readouterr().out == "rank 1 epoch: 1 step: 3, loss is 0.5\n"
