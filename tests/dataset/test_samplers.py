"""ember.dataset samplers: the row indices each gives, MindSpore's rules for choosing one from a
dataset's arguments, and sizes, against plain-Python references."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.dataset as ds
from ember.dataset import config


@pytest.fixture(autouse=True)
def _dataset_seed_follows_ember():
    yield
    config._seed = None
    config._generator = None


def _values(dataset):
    return [row[0].item() for row in dataset.create_tuple_iterator(output_numpy=True,
                                                                   num_epochs=1)]


def _slices(n=10, **kwargs):
    return ds.NumpySlicesDataset(list(range(100, 100 + n)), **kwargs)


def test_sequential_sampler_start_and_count():
    data = _slices(sampler=ds.SequentialSampler(start_index=2, num_samples=3))
    assert _values(data) == [102, 103, 104] and data.get_dataset_size() == 3
    assert _slices(sampler=ds.SequentialSampler()).get_dataset_size() == 10
    with pytest.raises(ValueError, match="start_index 12 must be less than the dataset size 10"):
        _values(_slices(sampler=ds.SequentialSampler(start_index=12)))


def test_random_sampler_permutes_or_draws_with_replacement_reproducibly():
    ds.config.set_seed(3)
    first = _values(_slices(sampler=ds.RandomSampler()))
    assert sorted(first) == list(range(100, 110)) and first != sorted(first)
    ds.config.set_seed(3)
    assert _values(_slices(sampler=ds.RandomSampler())) == first
    drawn = _values(ds.NumpySlicesDataset(list(range(3)), sampler=ds.RandomSampler(
        replacement=True, num_samples=50)))
    assert len(drawn) == 3 and set(drawn) <= {0, 1, 2}  # MindSpore caps num_samples at the size
    many = _values(ds.NumpySlicesDataset(list(range(100)), sampler=ds.RandomSampler(
        replacement=True)))
    assert len(many) == 100 and len(set(many)) < 100  # with replacement rows repeat


def test_distributed_sampler_interleaves_wraps_and_caps():
    shards = [_values(_slices(sampler=ds.DistributedSampler(4, k, shuffle=False)))
              for k in range(4)]
    reference = [[100 + (k + 4 * i) % 10 for i in range(3)] for k in range(4)]
    assert shards == reference
    capped = _slices(sampler=ds.DistributedSampler(4, 1, shuffle=False, num_samples=2))
    assert _values(capped) == [101, 105] and capped.get_dataset_size() == 2
    seen = []
    for k in range(5):
        ember.set_seed(5)
        seen += _values(_slices(sampler=ds.DistributedSampler(5, k)))
    assert sorted(seen) == list(range(100, 110))


def test_subset_samplers():
    assert _values(_slices(sampler=ds.SubsetSampler([4, 1, 4]))) == [104, 101, 104]
    capped = _slices(sampler=ds.SubsetSampler([4, 1, 4], num_samples=2))
    assert _values(capped) == [104, 101] and capped.get_dataset_size() == 2
    shuffled = _values(_slices(sampler=ds.SubsetRandomSampler([0, 2, 4, 6, 8])))
    assert sorted(shuffled) == [100, 102, 104, 106, 108]
    with pytest.raises(TypeError, match="SubsetSampler: indices must be ints"):
        ds.SubsetSampler([0.5])


def test_weighted_random_sampler_follows_the_weights():
    ds.config.set_seed(0)
    data = ds.NumpySlicesDataset(list(range(3)), sampler=ds.WeightedRandomSampler(
        [1.0, 0.0, 3.0], num_samples=4000))
    drawn = np.array(_values(data))
    assert len(drawn) == 4000 and not (drawn == 1).any()
    assert abs((drawn == 2).mean() - 0.75) < 0.03  # 4 standard deviations of 4000 draws
    distinct = _values(ds.NumpySlicesDataset(list(range(3)), sampler=ds.WeightedRandomSampler(
        [1, 1, 0], num_samples=2, replacement=False)))
    assert sorted(distinct) == [0, 1]
    with pytest.raises(ValueError, match="weights must be non-negative with a positive sum"):
        ds.WeightedRandomSampler([0, 0])
    with pytest.raises(ValueError, match="at most the 1 non-zero weights, but got 2"):
        ds.WeightedRandomSampler([0, 1], num_samples=2, replacement=False)


def test_user_sampler_subclass_sees_the_dataset_size():
    class EveryOther(ds.Sampler):
        def __iter__(self):
            return iter(range(0, self.dataset_size, 2))

    assert _values(_slices(sampler=EveryOther())) == [100, 102, 104, 106, 108]
    assert _values(_slices(sampler=EveryOther(num_samples=2))) == [100, 102]

    class SameRowPerEpoch(ds.Sampler):  # MindSpore's test_python_sampler Sp2
        def __init__(self, num_samples=None):
            super().__init__(num_samples)
            self.cnt = 0

        def __iter__(self):
            return iter([self.cnt] * self.num_samples)

        def reset(self):
            self.cnt = (self.cnt + 1) % self.dataset_size

    rows = _values(_slices(5, sampler=SameRowPerEpoch(2)).repeat(6))
    assert rows == [100, 100, 101, 101, 102, 102, 103, 103, 104, 104, 100, 100]


def test_dataset_arguments_choose_the_sampler_as_mindspore():
    ember.set_seed(1)
    drawn = _values(_slices(num_samples=6))  # shuffled with num_samples: with replacement
    assert len(drawn) == 6 and set(drawn) <= set(range(100, 110))
    assert _values(_slices(shuffle=False, num_samples=3)) == [100, 101, 102]
    assert _values(_slices(shuffle=False, num_shards=4, shard_id=3)) == [103, 107, 101]
    assert _values(_slices(sampler=np.array([3, 2]))) == [103, 102]
    assert _values(_slices(sampler=range(7, 10), num_samples=2)) == [107, 108]
    with pytest.raises(RuntimeError, match=r"sampler and num_samples cannot be specified"):
        _slices(sampler=ds.SequentialSampler(), num_samples=2)


@pytest.mark.parametrize("make, error, match", [
    (lambda: ds.DistributedSampler(2, 2), ValueError, r"shard_id must be in \[0, num_shards=2\)"),
    (lambda: ds.DistributedSampler(0, 0), ValueError, "num_shards must be a positive int"),
    (lambda: ds.RandomSampler(replacement=1), TypeError, "replacement must be a bool"),
    (lambda: ds.SequentialSampler(num_samples=-1), ValueError,
     "SequentialSampler: num_samples must be a non-negative int"),
])
def test_sampler_arguments_are_checked(make, error, match):
    with pytest.raises(error, match=match):
        make()


@pytest.mark.parametrize("kwargs, error", [
    ({"column_names": [1]}, TypeError), ({"column_names": [""]}, ValueError),
    ({"column_names": []}, ValueError), ({"num_shards": 2**31, "shard_id": 0}, ValueError),
])
def test_names_and_shards_get_mindspores_error_types(kwargs, error):
    with pytest.raises(error, match="NumpySlicesDataset: (column_names|num_shards) must"):
        ds.NumpySlicesDataset([1, 2, 3], **kwargs)


def test_use_sampler_replaces_the_sources_sampler_through_the_pipeline():
    data = _slices(shuffle=False).map(lambda x: x + 1000)
    assert _values(data) == list(range(1100, 1110))
    data.use_sampler(ds.DistributedSampler(3, 1, shuffle=False))
    assert _values(data) == [1101, 1104, 1107, 1100] and data.get_dataset_size() == 4
    with pytest.raises(TypeError, match="MapDataset.use_sampler: new_sampler is not an "
                                        "instance of a sampler, but a list"):
        data.use_sampler([0, 1])
    stream = ds.GeneratorDataset(lambda: iter(range(3)), "x")
    zipped = _slices(3, shuffle=False).zip(stream.rename("x", "y"))
    with pytest.raises(ValueError, match=r"\['GeneratorDataset'\] read their rows in order"):
        zipped.use_sampler(ds.SequentialSampler())
    assert _values(zipped) == [100, 101, 102]  # the refused call changed no sampler
    with pytest.raises(ValueError, match="holds a concat"):
        (_slices(2) + _slices(2)).use_sampler(ds.SequentialSampler())


def test_pk_sampler_takes_num_val_rows_of_each_class_in_label_order():
    labels = np.array([2, 0, 1, 0, 2, 2, 1, 0, 1, 1])
    data = ds.NumpySlicesDataset({"x": np.arange(10), "label": labels},
                                 sampler=ds.PKSampler(3))
    rows = [(r[0].item(), r[1].item()) for r in data.create_tuple_iterator(output_numpy=True)]
    assert [label for _, label in rows] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert all(labels[x] == label for x, label in rows)  # each drawn from its own class
    assert data.get_dataset_size() == 9
    shuffled = ds.NumpySlicesDataset({"x": np.arange(10), "label": labels},
                                     sampler=ds.PKSampler(1, shuffle=True, num_samples=2))
    picked = [r[1].item() for r in shuffled.create_tuple_iterator(output_numpy=True)]
    assert len(picked) == 2 == shuffled.get_dataset_size() and len(set(picked)) == 2
    with pytest.raises(ValueError, match="PKSampler's class_column \\['label'\\] not among"):
        _values(_slices(sampler=ds.PKSampler(2)))
    with pytest.raises(ValueError, match="num_class is not supported"):
        ds.PKSampler(2, num_class=3)
