"""Text readers (TextFileDataset, CLUEDataset, the text corpora, IMDB), ``split``, ``flat_map``
and pre-trained vectors, against the files' contents written here and hand-computed values."""

from __future__ import annotations

import json

import numpy as np
import pytest

import ember.dataset as ds
from ember.dataset import text


def _column(dataset, name):
    return [row[name].item() if row[name].ndim == 0 else row[name].tolist()
            for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True)]


def test_text_file_lines_shards_and_worker_interleave(tmp_path):
    (tmp_path / "a.txt").write_text("a1\n\na2\na3\n")
    (tmp_path / "b.txt").write_text("b1\nb2\n")
    pattern = str(tmp_path / "*.txt")
    one = ds.TextFileDataset(pattern, shuffle=False, num_parallel_workers=1)
    assert _column(one, "text") == [b"a1", b"a2", b"a3", b"b1", b"b2"]  # empty line left out
    two = ds.TextFileDataset(pattern, shuffle=False, num_parallel_workers=2)
    assert _column(two, "text") == [b"a1", b"b1", b"a2", b"b2", b"a3"]
    shard = ds.TextFileDataset(pattern, shuffle=False, num_shards=2, shard_id=1,
                               num_parallel_workers=1)
    assert _column(shard, "text") == [b"b1", b"b2", b"a1"]  # rows 3, 4, 0: ceil(5 / 2) each
    assert ds.TextFileDataset(pattern, num_samples=2).get_dataset_size() == 2
    shuffled = _column(ds.TextFileDataset(pattern), "text")
    assert sorted(shuffled) == [b"a1", b"a2", b"a3", b"b1", b"b2"]
    with pytest.raises(ValueError, match="num_samples exceeds the boundary"):
        ds.TextFileDataset(pattern, num_samples=-1)
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TextFileDataset(str(tmp_path / "none.txt"))


def test_clue_columns_are_the_tasks_keys_sorted(tmp_path):
    path = tmp_path / "train.json"
    records = [{"sentence1": "s1", "sentence2": "s2", "label": "0"},
               {"sentence1": "t1", "sentence2": "t2", "label": "1"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    data = ds.CLUEDataset(str(path), task="AFQMC", usage="train", shuffle=False)
    assert data.get_col_names() == ["label", "sentence1", "sentence2"]
    assert _column(data, "sentence2") == [b"s2", b"t2"]
    wsc = tmp_path / "wsc.json"
    wsc.write_text(json.dumps({"target": {"span1_index": 3, "span2_index": 7, "span1_text": "a",
                                          "span2_text": "b"}, "idx": 0, "text": "t"}) + "\n")
    test = ds.CLUEDataset(str(wsc), task="WSC", usage="test", shuffle=False)
    row = next(test.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert row["span2_index"].item() == 7 and row["span2_index"].dtype == np.uint32
    with pytest.raises(ValueError, match="task should be"):
        ds.CLUEDataset(str(path), task="NONE")


def test_corpora_read_their_usages_files(tmp_path):
    (tmp_path / "train.csv").write_text('"1","Title","Body, with a comma"\n')
    (tmp_path / "test.csv").write_text('"2","T2","B2"\n')
    news = ds.AGNewsDataset(str(tmp_path), usage="train", shuffle=False)
    assert news.get_col_names() == ["index", "title", "description"]
    assert _column(news, "description") == [b"Body, with a comma"]
    assert _column(ds.AGNewsDataset(str(tmp_path), shuffle=False, num_parallel_workers=1),
                   "index") == [b"2", b"1"]  # test.csv sorts first
    with pytest.raises(ValueError, match="Input usage is not within the valid set"):
        ds.AGNewsDataset(str(tmp_path), usage="valid")
    (tmp_path / "ptb.valid.txt").write_text(" a b \n\n c \n")
    assert _column(ds.PennTreebankDataset(str(tmp_path), usage="valid", shuffle=False),
                   "text") == [b" a b ", b" c "]
    (tmp_path / "test.txt").write_text("He PRP B-NP\nruns   VBZ  B-VP\n\nOK UH O\n")
    conll = ds.CoNLL2000Dataset(str(tmp_path), usage="test", shuffle=False)
    assert _column(conll, "word") == [[b"He", b"runs"], [b"OK"]]
    assert _column(conll, "chunk_tag") == [[b"B-NP", b"B-VP"], [b"O"]]


def test_imdb_reads_pos_then_neg_by_index(tmp_path):
    for part, label, name, body in (("train", "pos", "0_9.txt", "good"),
                                    ("train", "neg", "1_2.txt", "bad"),
                                    ("test", "pos", "0_8.txt", "fine\n"),
                                    ("test", "neg", "0_1.txt", "poor")):
        (tmp_path / part / label).mkdir(parents=True, exist_ok=True)
        (tmp_path / part / label / name).write_text(body)
    data = ds.IMDBDataset(str(tmp_path), shuffle=False)
    assert _column(data, "text") == [b"good", b"bad", b"fine", b"poor"]
    assert _column(data, "label") == [1, 0, 1, 0]
    assert ds.IMDBDataset(str(tmp_path), usage="test").get_dataset_size() == 2


def test_split_sizes_rounding_and_disjoint_windows():
    numbers = list(range(10))
    data = ds.NumpySlicesDataset(numbers, column_names=["n"], shuffle=False)
    first, second = data.split([0.33, 0.67], randomize=False)  # 3.3 -> 3, 6.7 -> 7
    assert _column(first, "n") == [0, 1, 2] and _column(second, "n") == list(range(3, 10))
    ds.config.set_seed(1)
    try:
        parts = data.split([5, 3, 2])  # shuffled once: the same order in every split and epoch
        values = [_column(p, "n") for p in parts]
        assert [len(v) for v in values] == [5, 3, 2]
        assert sorted(sum(values, [])) == numbers
        assert _column(parts[0], "n") == values[0]
        parts[0].use_sampler(ds.SequentialSampler(num_samples=2))
        assert _column(parts[0], "n") == values[0][:2]
        mapped = data.map(lambda n: n * 2, input_columns="n").split([0.5, 0.5])
        halves = [_column(m, "n") for m in mapped]
        assert sorted(halves[0] + halves[1]) == [2 * n for n in numbers]
    finally:
        ds.config._seed = ds.config._generator = None
    with pytest.raises(RuntimeError, match="Sum of split sizes 4 is not equal to dataset size 10"):
        data.split([3, 1])
    with pytest.raises(ValueError, match="percentages do not sum up to 1"):
        data.split([0.5, 0.6])
    with pytest.raises(RuntimeError, match="Split percentage 0.01 is too small"):
        data.split([0.01, 0.99])
    sharded = ds.NumpySlicesDataset(numbers, num_shards=2, shard_id=0, shuffle=False)
    with pytest.raises(RuntimeError, match="should not be sharded before split"):
        sharded.split([3, 2])


def test_flat_map_concatenates_the_datasets_of_each_row():
    data = ds.NumpySlicesDataset([[0, 1], [2, 3]], column_names=["x"], shuffle=False)
    flat = data.flat_map(lambda row: ds.NumpySlicesDataset(row[0], shuffle=False).repeat(2))
    assert [r[0].item() for r in flat.create_tuple_iterator(output_numpy=True, num_epochs=1)] \
        == [0, 1, 0, 1, 2, 3, 2, 3]
    with pytest.raises(TypeError, match="flat_map must return a Dataset object"):
        data.flat_map(lambda row: row)


def test_vectors_lookup_unknown_and_char_ngrams(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("2 3\nok 1 2 3\nthe 0.5 0.5 0.5\n")
    vectors = text.Vectors.from_file(str(path))
    to_vectors = text.ToVectors(vectors, unk_init=[-1, -1, -1], lower_case_backup=True)
    np.testing.assert_allclose(to_vectors("OK"), [1, 2, 3])
    np.testing.assert_allclose(to_vectors(np.array(["The", "none"])),
                               [[0.5, 0.5, 0.5], [-1, -1, -1]])
    assert text.Vectors.from_file(str(path), max_vectors=1).lookup("the", None, False) is None
    with pytest.raises(RuntimeError, match="unk_init must be the same length as vectors"):
        text.ToVectors(vectors, unk_init=[1.0])("ok")
    grams = tmp_path / "grams.txt"
    grams.write_text("2gram-#BEGIN#a 1 1\n2gram-ab 3 5\n4gram-#BEGIN#ab#END# 2 0\n")
    char_vectors = text.ToVectors(text.CharNGram.from_file(str(grams)))
    np.testing.assert_allclose(char_vectors("ab"), [2, 2])  # mean of the three grams it has
    with pytest.raises(RuntimeError, match="can not find file 'glove.6B"):
        text.GloVe.from_file(str(path))
