"""ember.dataset: sources, lazy operations and iterators against plain-Python references."""

from __future__ import annotations

import contextlib
import itertools
import math
import subprocess
import sys

import numpy as np
import pytest

import ember
import ember.dataset as ds
from ember import Tensor, context, nn
from ember.dataset import config


@pytest.fixture(autouse=True)
def _dataset_seed_follows_ember():
    """Tests that call ds.config.set_seed must not leave it set for the others."""
    yield
    config._seed = None
    config._generator = None


def _numpy_rows(dataset, **kwargs):
    return list(dataset.create_tuple_iterator(output_numpy=True, **kwargs))


def _warns_empty():
    return pytest.warns(UserWarning, match="epoch 1 gave no rows: the dataset is empty")


def _column(dataset, index=0):
    return [row[index].tolist() for row in _numpy_rows(dataset)]


class _Counted:
    """A generator function that counts the rows it was asked for (endless unless ``stop``)."""

    def __init__(self, stop=None):
        self.pulled = 0
        self.stop = stop

    def __call__(self):
        i = 0
        while self.stop is None or i < self.stop:
            self.pulled += 1
            yield (np.array([i, -i], dtype=np.int32), np.float32(i) / 2)
            i += 1


# -- sources ---------------------------------------------------------------------------------
def test_numpy_slices_columns_names_and_dtypes():
    features = np.arange(12, dtype=np.float32).reshape(6, 2)
    data = ds.NumpySlicesDataset((features, [0, 1, 2, 3, 4, 5], [0.5] * 6), shuffle=False)
    assert data.get_col_names() == ["column_0", "column_1", "column_2"]
    assert data.get_dataset_size() == 6
    assert data.output_shapes() == [[2], [], []]
    assert data.output_types() == [np.float32, np.int64, np.float64]
    rows = _numpy_rows(data)
    np.testing.assert_array_equal(np.stack([r[0] for r in rows]), features)
    assert [r[1].item() for r in rows] == list(range(6))


def test_numpy_slices_list_is_one_column_and_dict_keys_are_names():
    single = ds.NumpySlicesDataset([[1, 2], [3, 4], [5, 6]], shuffle=False)
    assert single.get_col_names() == ["column_0"]
    assert _column(single) == [[1, 2], [3, 4], [5, 6]]
    named = ds.NumpySlicesDataset({"a": [1, 2], "b": np.array([3.0, 4.0])}, shuffle=False)
    assert named.get_col_names() == ["a", "b"]
    assert [[r[0].item(), r[1].item()] for r in _numpy_rows(named)] == [[1, 3.0], [2, 4.0]]
    renamed = ds.NumpySlicesDataset(([1, 2], [3, 4]), column_names=["x", "y"], shuffle=False)
    assert renamed.get_col_names() == ["x", "y"]


def test_numpy_slices_copies_the_callers_data():
    data = np.arange(4)
    dataset = ds.NumpySlicesDataset(data, shuffle=False)
    data[:] = 0
    assert _column(dataset) == [0, 1, 2, 3]


def test_numpy_slices_shuffles_by_default_and_reproducibly_under_ember_set_seed():
    ember.set_seed(7)
    first = _column(ds.NumpySlicesDataset(list(range(20))))
    ember.set_seed(7)
    again = _column(ds.NumpySlicesDataset(list(range(20))))
    assert first == again
    assert sorted(first) == list(range(20)) and first != list(range(20))


@pytest.mark.parametrize("data, error, match", [
    (5, TypeError, "NumpySlicesDataset: data must be a list, tuple, dict or NumPy array"),
    (([1, 2, 3], [1, 2]), ValueError, "same number of rows.*'column_0': 3, 'column_1': 2"),
    ((np.array(3),), ValueError, "column 'column_0' is a scalar"),
    ([[1, 2], [3]], TypeError, "column 'column_0' must be numbers"),
    ({1: [1, 2]}, TypeError, "keys of a dict data must be str"),
])
def test_numpy_slices_rejects_bad_data(data, error, match):
    with pytest.raises(error, match=match):
        ds.NumpySlicesDataset(data)


def test_numpy_slices_rejects_wrong_number_of_column_names():
    with pytest.raises(ValueError, match="column_names has 1 names but data has 2 columns"):
        ds.NumpySlicesDataset(([1], [2]), column_names=["only"])


def test_generator_function_rows_become_arrays_with_numpy_dtypes():
    def gen():
        for i in range(3):
            yield i, float(i) / 4, [i, i + 1], "s"

    data = ds.GeneratorDataset(gen, ["int", "float", "list", "str"])
    rows = _numpy_rows(data)
    assert [r[0].dtype for r in rows] == [np.int64] * 3
    assert [r[1].dtype for r in rows] == [np.float64] * 3
    assert [r[1].item() for r in rows] == [0.0, 0.25, 0.5]
    assert [r[2].tolist() for r in rows] == [[0, 1], [1, 2], [2, 3]]
    # strings stay NumPy arrays even where the other columns become Tensors
    row = next(iter(data))
    assert isinstance(row[0], Tensor) and row[0].dtype == ember.int64
    assert isinstance(row[3], np.ndarray) and row[3].item() == "s"


def test_generator_single_value_rows_and_iterables():
    class Iterable:
        def __iter__(self):
            return iter(range(3))

    assert _column(ds.GeneratorDataset(lambda: iter(range(3)), "x")) == [0, 1, 2]
    assert _column(ds.GeneratorDataset(Iterable(), "x").take(2)) == [0, 1]
    # a list or range has __getitem__: random-accessible, so shuffled unless told otherwise
    assert _column(ds.GeneratorDataset(range(3), "x", shuffle=False)) == [0, 1, 2]
    assert ds.GeneratorDataset(range(5), "x").get_dataset_size() == 5


def test_random_access_source_orders_shuffles_and_samples():
    class Squares:
        def __getitem__(self, i):
            return np.array(i * i), np.array([i])

        def __len__(self):
            return 6

    data = ds.GeneratorDataset(Squares(), ["sq", "i"], shuffle=False)
    assert _column(data) == [0, 1, 4, 9, 16, 25]
    assert _column(data, 1) == [[i] for i in range(6)]
    shuffled = _column(ds.GeneratorDataset(Squares(), ["sq", "i"]))
    assert sorted(shuffled) == [0, 1, 4, 9, 16, 25]
    sampled = ds.GeneratorDataset(Squares(), ["sq", "i"], sampler=[5, 0, 5])
    assert _column(sampled) == [25, 0, 25] and sampled.get_dataset_size() == 3
    capped = ds.GeneratorDataset(Squares(), ["sq", "i"], shuffle=False, num_samples=4)
    assert _column(capped) == [0, 1, 4, 9] and capped.get_dataset_size() == 4


def test_random_access_with_workers_keeps_the_order():
    data = ds.GeneratorDataset(list(range(50)), "x", shuffle=False, num_parallel_workers=4)
    assert _column(data) == list(range(50))


def test_shards_split_rows_as_mindspore_distributed_sampler():
    shards = [_column(ds.NumpySlicesDataset(list(range(10)), shuffle=False, num_shards=3,
                                            shard_id=k)) for k in range(3)]
    # shard k takes rows k, k + 3, ... ceil(10 / 3) = 4 of them, wrapping around
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    sizes = [ds.NumpySlicesDataset(list(range(10)), num_shards=3, shard_id=k).get_dataset_size()
             for k in range(3)]
    assert sizes == [4, 4, 4]


def test_shuffled_shards_with_one_seed_cover_every_row_once():
    seen = []
    for k in range(4):
        ember.set_seed(11)
        seen += _column(ds.NumpySlicesDataset(list(range(12)), num_shards=4, shard_id=k))
    assert sorted(seen) == list(range(12))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"shuffle": True}, ValueError, "GeneratorDataset: shuffle needs a random-accessible"),
    ({"sampler": [0]}, ValueError, "GeneratorDataset: sampler needs a random-accessible"),
    ({"num_shards": 2, "shard_id": 0}, ValueError, "num_shards needs a random-accessible"),
    ({"num_samples": 0}, ValueError, "num_samples must be a positive int, but got 0"),
    ({"num_parallel_workers": 0}, ValueError, "num_parallel_workers must be a positive int"),
])
def test_generator_function_rejects_random_access_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.GeneratorDataset(_Counted(), ["a", "b"], **kwargs)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"shard_id": 0}, RuntimeError, "num_shards and shard_id go together"),
    ({"num_shards": 2, "shard_id": 2}, ValueError, r"shard_id must be in \[0, num_shards=2\)"),
    ({"num_shards": 0, "shard_id": 0}, ValueError, "num_shards must be a positive int"),
    ({"shuffle": 1}, TypeError, "NumpySlicesDataset: shuffle must be a bool"),
    ({"sampler": [0], "shuffle": True}, RuntimeError, r"sampler and shuffle cannot be specified"),
    ({"sampler": 3}, TypeError, "Unsupported sampler object of type"),
])
def test_sampling_arguments_are_checked(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.NumpySlicesDataset(list(range(4)), **kwargs)


def test_sampler_index_out_of_range_is_named():
    with pytest.raises(IndexError, match="sampler gave row index 9, but the source has 4 rows"):
        _column(ds.NumpySlicesDataset(list(range(4)), sampler=[0, 9]))


def test_generator_source_and_rows_are_checked():
    with pytest.raises(TypeError, match="source must be random-accessible .* but got int"):
        ds.GeneratorDataset(3, "x")
    with pytest.raises(TypeError, match="column_names must be a non-empty str or a non-empty"):
        ds.GeneratorDataset(range(3), 7)
    with pytest.raises(ValueError, match="Neither columns_names nor schema are provided"):
        ds.GeneratorDataset(range(3), None)
    with pytest.raises(ValueError, match="row of 2 columns, but column_names has 1"):
        _column(ds.GeneratorDataset(_Counted(stop=2), ["a"]))
    with pytest.raises(TypeError, match="but the source gave a dict"):
        _column(ds.GeneratorDataset(lambda: iter([{"a": 1}]), ["a"]))
    with pytest.raises(TypeError, match="must return an iterator .* but returned int"):
        _column(ds.GeneratorDataset(lambda: 3, ["a"]))


def test_column_types_are_checked_not_cast():
    typed = ds.GeneratorDataset(_Counted(stop=2), ["a", "b"],
                                column_types=[ember.int32, ember.float32])
    assert len(_numpy_rows(typed)) == 2
    partly = ds.GeneratorDataset(_Counted(stop=2), ["a", "b"], column_types=[None, ember.float32])
    assert len(_numpy_rows(partly)) == 2
    wrong = ds.GeneratorDataset(_Counted(stop=2), ["a", "b"],
                                column_types=[ember.int64, ember.float32])
    with pytest.raises(TypeError, match="column 'a' holds int32, but column_types says Int64"):
        _numpy_rows(wrong)
    with pytest.raises(ValueError, match="column_types has 1 entries but column_names has 2"):
        ds.GeneratorDataset(_Counted(), ["a", "b"], column_types=[ember.int32])


# -- streaming -------------------------------------------------------------------------------
def test_endless_generator_is_streamed_through_take():
    source = _Counted()
    data = ds.GeneratorDataset(source, ["a", "b"]).take(5)
    assert _column(data, 1) == [0.0, 0.5, 1.0, 1.5, 2.0]
    assert source.pulled == 5


def test_map_batch_take_pull_only_what_they_need():
    source = _Counted()
    data = (ds.GeneratorDataset(source, ["a", "b"])
            .map(lambda a: a * 10, input_columns="a").batch(3).take(2))
    batches = _numpy_rows(data)
    assert source.pulled == 6
    np.testing.assert_array_equal(batches[1][0], [[30, -30], [40, -40], [50, -50]])
    source.pulled = 0
    assert data.get_dataset_size() == 2  # counted by streaming, never endless
    assert source.pulled == 6


def test_size_of_a_generator_without_length_is_counted_once():
    source = _Counted(stop=7)
    data = ds.GeneratorDataset(source, ["a", "b"]).batch(2)
    assert data.get_dataset_size() == 4
    assert data.get_dataset_size() == 4
    assert source.pulled == 7


# -- operations ------------------------------------------------------------------------------
@pytest.mark.parametrize("rows, size, drop", [(10, 3, False), (10, 3, True), (9, 3, True),
                                              (2, 5, False), (2, 5, True)])
def test_batch_sizes_and_contents(rows, size, drop):
    data = ds.NumpySlicesDataset(np.arange(rows * 2).reshape(rows, 2), shuffle=False)
    batched = data.batch(size, drop_remainder=drop)
    expected = rows // size if drop else math.ceil(rows / size)
    with _warns_empty() if expected == 0 else contextlib.nullcontext():
        batches = _numpy_rows(batched)
    assert batched.get_dataset_size() == len(batches) == expected
    assert batched.get_batch_size() == size
    full = np.arange(rows * 2).reshape(rows, 2)
    for k, (batch,) in enumerate(batches):
        np.testing.assert_array_equal(batch, full[k * size:(k + 1) * size])


def test_batch_stacks_scalars_and_keeps_dtypes():
    data = ds.NumpySlicesDataset((np.arange(4, dtype=np.int32), np.ones((4, 2, 3), np.float16)),
                                 shuffle=False).batch(2)
    assert data.output_shapes() == [[2], [2, 2, 3]]
    assert data.output_types() == [np.int32, np.float16]
    first = next(iter(data))
    assert first[0].dtype == ember.int32 and first[1].dtype == ember.float16


def test_batch_per_batch_map_and_batch_info():
    seen = []

    def pad(xs, info):
        seen.append((info.get_epoch_num(), info.get_batch_num()))
        width = max(len(x) for x in xs)
        return ([np.pad(x, (0, width - len(x))) for x in xs], [np.array(len(x)) for x in xs])

    def ragged():
        for n in (1, 3, 2, 2):
            yield (np.ones(n, np.int64),)

    data = ds.GeneratorDataset(ragged, ["x"]).batch(2, per_batch_map=pad, input_columns="x",
                                                     output_columns=["x", "length"])
    assert data.get_col_names() == ["x", "length"]
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    first = list(it)
    list(it)
    np.testing.assert_array_equal(first[0][0], [[1, 0, 0], [1, 1, 1]])
    np.testing.assert_array_equal(first[0][1], [1, 3])
    assert seen == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_batch_with_a_callable_size():
    data = ds.NumpySlicesDataset(list(range(7)), shuffle=False)
    batched = data.batch(lambda info: info.get_batch_num() + 1)
    assert [b[0].tolist() for b in _numpy_rows(batched)] == [[0], [1, 2], [3, 4, 5], [6]]
    assert batched.get_dataset_size() == 4 and batched.get_batch_size() == -1


def test_batch_of_unequal_shapes_names_the_column():
    def ragged():
        yield (np.ones(2),)
        yield (np.ones(3),)

    with pytest.raises(ValueError, match=r"Dataset.batch: column 'x' has rows of different "
                                         r"shapes \[\(2,\), \(3,\)\]"):
        _numpy_rows(ds.GeneratorDataset(ragged, ["x"]).batch(2))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"batch_size": 0}, ValueError, "Dataset.batch: batch_size is not within the required "
                                    r"interval of \[1, 2147483647\], but got 0"),
    ({"batch_size": 2**31}, ValueError, "batch_size is not within the required interval"),
    ({"batch_size": "4"}, TypeError, "batch_size should either be an int or a callable"),
    ({"batch_size": lambda a, b: 1}, ValueError, "callable batch_size should take one"),
    ({"batch_size": 2, "drop_remainder": 1}, TypeError, "drop_remainder must be a bool"),
    ({"batch_size": 2, "input_columns": ["x"]}, ValueError,
     "per_batch_map and input_columns need to be passed in together"),
    ({"batch_size": 2, "per_batch_map": lambda x, info: (x,)}, ValueError,
     "per_batch_map and input_columns need to be passed in together"),
    ({"batch_size": 2, "per_batch_map": lambda x, y, info: (x,), "input_columns": ["column_0"]},
     ValueError, "signature of per_batch_map should match with input columns"),
    ({"batch_size": 2, "output_columns": ["x"]}, ValueError, "are for per_batch_map"),
    ({"batch_size": 2, "per_batch_map": 3, "input_columns": ["column_0"]}, TypeError,
     "per_batch_map must be callable"),
    ({"batch_size": 2, "num_parallel_workers": -1}, ValueError, "num_parallel_workers"),
])
def test_batch_arguments_are_checked(kwargs, error, match):
    """MindSpore 1.6's checks and messages."""
    with pytest.raises(error, match=match):
        ds.NumpySlicesDataset(list(range(4))).batch(**kwargs)


def test_batch_size_true_is_one_as_in_mindspore():
    data = ds.NumpySlicesDataset(list(range(3)), shuffle=False).batch(True)
    assert [row[0].tolist() for row in _numpy_rows(data)] == [[0], [1], [2]]


def test_per_batch_map_must_return_a_tuple():
    data = ds.NumpySlicesDataset(list(range(4))).batch(2, per_batch_map=lambda x, info: x,
                                                       input_columns="column_0")
    with pytest.raises(TypeError, match="per_batch_map must return a tuple"):
        _numpy_rows(data)


def test_repeat_take_skip_and_sizes():
    data = ds.NumpySlicesDataset(list(range(4)), shuffle=False)
    assert _column(data.repeat(2)) == [0, 1, 2, 3] * 2
    assert data.repeat(3).get_dataset_size() == 12
    forever = data.repeat()
    assert forever.get_dataset_size() == 4  # MindSpore counts one repetition
    assert _column(forever.take(10)) == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert _column(data.skip(1).take(2)) == [1, 2]
    assert data.skip(10).get_dataset_size() == 0
    with _warns_empty():
        assert _column(data.skip(10)) == []
    assert data.take(10).get_dataset_size() == 4 and data.take(-1).get_dataset_size() == 4
    assert data.repeat(-1).get_dataset_size() == 4
    assert data.get_batch_size() == 1
    assert data.batch(3).map(lambda x: x).repeat(2).get_batch_size() == 3
    with _warns_empty():
        assert _column(ds.GeneratorDataset(lambda: iter(()), "x").repeat()) == []


@pytest.mark.parametrize("call, error, match", [
    (lambda d: d.repeat(0), ValueError, "Dataset.repeat: count must be a positive int or -1"),
    (lambda d: d.take(0), ValueError, "Dataset.take: count must be a positive int or -1"),
    (lambda d: d.skip(-1), ValueError, "Dataset.skip: count must be a non-negative int"),
    (lambda d: d.skip(1.0), TypeError, "Dataset.skip: count must be a non-negative int, but "
                                       "got float"),
    (lambda d: d.shuffle(1), ValueError, r"Dataset.shuffle: buffer_size must be an int >= 2"),
    (lambda d: d.project("z"), ValueError, r"Dataset.project: columns \['z'\] not among .*"
                                           r"\['a', 'b'\]"),
    (lambda d: d.rename("a", ["x", "y"]), ValueError, "the same length"),
    (lambda d: d.rename("a", "b"), ValueError, r"resulting columns \['b', 'b'\] repeat"),
    (lambda d: d.map(3), TypeError, "Dataset.map: operations must be a callable"),
    (lambda d: d.map(abs, input_columns="c"), ValueError, r"input_columns \['c'\] not among"),
    (lambda d: d.map(abs, column_order=["a", "a"]), ValueError, "column_order must not repeat"),
])
def test_operation_arguments_are_checked(call, error, match):
    with pytest.raises(error, match=match):
        call(ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}))


def test_project_and_rename():
    data = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4], "c": [5, 6]}, shuffle=False)
    projected = data.project(["c", "a"])
    assert projected.get_col_names() == ["c", "a"]
    assert [[v.item() for v in r] for r in _numpy_rows(projected)] == [[5, 1], [6, 2]]
    renamed = data.rename(["a", "c"], ["x", "z"])
    assert renamed.get_col_names() == ["x", "b", "z"]
    assert _column(renamed, 2) == [5, 6]


def test_map_in_place_chained_and_renamed():
    data = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}, shuffle=False)
    chained = data.map([lambda a: a + 1, lambda a: a * 10])  # first column by default
    assert chained.get_col_names() == ["a", "b"] and _column(chained) == [20, 30]
    renamed = data.map(lambda b: -b, input_columns="b", output_columns="nb")
    assert renamed.get_col_names() == ["a", "nb"] and _column(renamed, 1) == [-3, -4]


def test_map_with_more_outputs_puts_them_first_then_column_order():
    data = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4], "c": [5, 6]}, shuffle=False)
    split = data.map(lambda b: (b, b * b, Tensor(np.array(b + 0.5, np.float32))),
                     input_columns="b", output_columns=["b1", "b2", "b3"])
    assert split.get_col_names() == ["b1", "b2", "b3", "a", "c"]
    assert [[v.item() for v in r] for r in _numpy_rows(split)] == [[3, 9, 3.5, 1, 5],
                                                                   [4, 16, 4.5, 2, 6]]
    merged = data.map(lambda a, b: a + b, input_columns=["a", "b"], output_columns="s",
                      column_order=["c", "s"])
    assert merged.get_col_names() == ["c", "s"]
    assert [[v.item() for v in r] for r in _numpy_rows(merged)] == [[5, 4], [6, 6]]


def test_map_output_count_mismatch_is_named():
    data = ds.NumpySlicesDataset({"a": [1]}).map(lambda a: (a, a), input_columns="a")
    with pytest.raises(ValueError, match=r"returned 2 columns, but output_columns names 1"):
        _numpy_rows(data)


def test_map_on_threads_keeps_the_order():
    data = ds.NumpySlicesDataset(np.arange(40), shuffle=False).map(
        lambda x: np.sqrt(x.astype(np.float64)), num_parallel_workers=4)
    np.testing.assert_allclose(_column(data), np.sqrt(np.arange(40)))


# -- shuffle ---------------------------------------------------------------------------------
@pytest.mark.parametrize("buffer_size", [2, 5])
def test_shuffle_buffer_only_reaches_buffer_size_ahead(buffer_size):
    ember.set_seed(3)
    out = _column(ds.NumpySlicesDataset(list(range(40)), shuffle=False).shuffle(buffer_size))
    assert sorted(out) == list(range(40)) and out != list(range(40))
    # when the i-th row leaves, only rows 0 .. i + buffer_size - 1 have entered the buffer
    assert all(value <= i + buffer_size - 1 for i, value in enumerate(out))


def test_shuffle_is_reproducible_and_new_each_epoch():
    def epochs(seed_call):
        seed_call()
        data = ds.GeneratorDataset(range(30), "x").shuffle(30)
        it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[r[0].item() for r in it] for _ in range(2)]

    first = epochs(lambda: ember.set_seed(5))
    assert first == epochs(lambda: ember.set_seed(5))
    assert first[0] != first[1] and sorted(first[0]) == sorted(first[1]) == list(range(30))
    assert first != epochs(lambda: ember.set_seed(6))
    by_config = epochs(lambda: ds.config.set_seed(5))
    assert by_config == epochs(lambda: ds.config.set_seed(5))
    assert ds.config.get_seed() == 5


def test_without_a_seed_get_seed_answers_mindspores_default_and_draws_stay_random():
    script = ("import ember.dataset as ds\n"
              "from ember.dataset.transforms._base import op_generator\n"
              "draws = {int(op_generator().integers(2**62)) for _ in range(2)}\n"
              "print(ds.config.get_seed(), len(draws))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["5489", "2"]


def test_config_set_seed_is_checked():
    with pytest.raises(ValueError, match="set_seed: seed must be a non-negative int"):
        ds.config.set_seed(-1)
    with pytest.raises(ValueError, match="seed must be at most 4294967295"):
        ds.config.set_seed(2**32)


# -- iterators -------------------------------------------------------------------------------
def test_tuple_and_dict_iterators():
    data = ds.NumpySlicesDataset({"x": np.ones((3, 2), np.float32), "y": [0, 1, 2]},
                                 shuffle=False)
    row = next(data.create_tuple_iterator())
    assert isinstance(row, list) and [type(v) for v in row] == [Tensor, Tensor]
    assert row[0].dtype == ember.float32 and row[0].shape == (2,)
    picked = next(data.create_tuple_iterator(columns=["y", "x"], output_numpy=True))
    assert picked[0].item() == 0 and picked[1].shape == (2,)
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert [sorted(r) for r in rows] == [["x", "y"]] * 3 and rows[2]["y"].item() == 2
    fast = next(data.create_tuple_iterator(do_copy=False))
    np.testing.assert_array_equal(fast[0].asnumpy(), [1, 1])
    assert [r[1].asnumpy().item() for r in data] == [0, 1, 2]


def test_iterator_epochs():
    data = ds.NumpySlicesDataset(list(range(3)), shuffle=False)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [[r[0].item() for r in it] for _ in range(3)] == [[0, 1, 2], [0, 1, 2], []]
    endless = data.create_dict_iterator(output_numpy=True)
    assert [len(list(endless)) for _ in range(4)] == [3, 3, 3, 3]


def test_iterator_epochs_taken_as_slices_of_one_epoch_each():
    data = ds.NumpySlicesDataset(list(range(3)), shuffle=False)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [len(list(itertools.islice(it, 3))) for _ in range(3)] == [3, 3, 0]
    # a loop left in the middle of an epoch goes on with that epoch
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [r[0].item() for r in itertools.islice(it, 2)] == [0, 1]
    assert [r[0].item() for r in it] == [2]
    assert [r[0].item() for r in it] == [0, 1, 2]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"num_epochs": 0}, ValueError, "create_tuple_iterator: num_epochs must be a positive int "
                                    "or -1"),
    ({"output_numpy": 1}, TypeError, "output_numpy must be a bool"),
    ({"columns": ["nope"]}, ValueError, r"columns \['nope'\] not among"),
])
def test_iterator_arguments_are_checked(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.NumpySlicesDataset(list(range(3))).create_tuple_iterator(**kwargs)


def test_empty_dataset_has_no_output_shapes():
    with pytest.raises(RuntimeError, match="the dataset has no rows"):
        ds.GeneratorDataset(lambda: iter(()), "x").output_shapes()
    with pytest.raises(ValueError, match="data must have rows, but column 'column_0' is empty"):
        ds.NumpySlicesDataset(np.zeros((0, 2)))  # MindSpore refuses empty data too


# -- training --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_a_classifier_trains_from_a_pipeline(mode):
    """Two separable blobs, fed through shuffle/map/batch/repeat into TrainOneStepCell; the
    trained Dense layer classifies them (scored with nn.metrics.Accuracy)."""
    context.set_context(mode=mode)
    ember.set_seed(0)
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 64).astype(np.int32)
    points = (rng.standard_normal((64, 2)) + 3 * (2 * labels[:, None] - 1)).astype(np.float32)
    train = (ds.NumpySlicesDataset({"x": points, "label": labels}).shuffle(16)
             .map(lambda x: x / 3, input_columns="x").batch(16, drop_remainder=True).repeat(5))
    net = nn.Dense(2, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [step(row["x"], row["label"]).asnumpy().item()
              for row in train.create_dict_iterator()]
    assert len(losses) == train.get_dataset_size() == 20
    assert losses[-1] < losses[0]
    from ember.nn.metrics import Accuracy

    metric = Accuracy()
    for x, label in ds.NumpySlicesDataset((points / 3, labels), shuffle=False).batch(32):
        metric.update(net(x), label)
    assert metric.eval() > 0.95
