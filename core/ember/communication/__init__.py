"""Collective communication, as ``mindspore.communication``: ``init()`` in each process of
``mpirun -n N python train.py``, then ranks, groups and the collective primitives of
``ember.ops`` (AllReduce, AllGather, ...)."""

from ember.communication.management import (
    HCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    create_group,
    destroy_group,
    get_group_rank_from_world_rank,
    get_group_size,
    get_local_rank,
    get_local_rank_size,
    get_rank,
    get_world_rank_from_group_rank,
    init,
    release,
)

__all__ = [
    "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "GlobalComm", "create_group",
    "destroy_group", "get_group_rank_from_world_rank", "get_group_size", "get_local_rank",
    "get_local_rank_size", "get_rank", "get_world_rank_from_group_rank", "init", "release",
]
