"""``mindspore.communication._comm_helper``: where 1.6 defines GlobalComm and the world groups'
names; ember defines them in :mod:`ember.communication.management`."""

from ember.communication.management import (
    HCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
)

__all__ = ["HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "GlobalComm"]
