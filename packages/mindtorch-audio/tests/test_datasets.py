"""Datasets on real on-disk layouts (tmp_path), downloads from a real http.server on 127.0.0.1."""
import functools
import hashlib
import http.server
import os
import socket
import tarfile
import threading

import numpy as np
import pytest
import soundfile as sf

import mindtorch.torchaudio as ta
from mindtorch.torchaudio.datasets import utils

SR = 8000


def _wav(path, n=160, seed=0, fmt=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = (np.random.default_rng(seed).standard_normal(n) * 0.1).astype(np.float32)
    sf.write(path, data, SR, subtype="PCM_16", format=fmt)
    return sf.read(path, dtype="float32")[0]


@pytest.fixture
def server(tmp_path):
    """A real HTTP server on 127.0.0.1 serving tmp_path/www; yields (base_url, folder)."""
    www = tmp_path / "www"
    www.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(www))
    handler.log_message = lambda *a: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", www
    httpd.shutdown()
    httpd.server_close()


def _yesno_archive(folder):
    src = folder / "src" / "waves_yesno"
    names = ["0_0_1_1_0_1_0_1", "1_1_0_0_1_0_1_0"]
    expected = {n: _wav(str(src / f"{n}.wav"), seed=i) for i, n in enumerate(names)}
    archive = folder / "waves_yesno.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(src, arcname="waves_yesno")
    return archive, expected


def test_yesno_download_and_items(tmp_path, server):
    base, www = server
    archive, expected = _yesno_archive(www)
    root = tmp_path / "data"
    ds = ta.datasets.YESNO(root, url=f"{base}/{archive.name}", download=True)
    assert len(ds) == 2
    wave, sr, labels = ds[0]
    assert sr == SR and labels == [0, 0, 1, 1, 0, 1, 0, 1]
    assert tuple(wave.shape) == (1, 160)
    np.testing.assert_allclose(wave.numpy()[0], expected["0_0_1_1_0_1_0_1"])
    assert sorted(os.listdir(root)) == ["waves_yesno", "waves_yesno.tar.gz"]  # no temp leftovers


def test_download_checksum_and_network_errors(tmp_path, server):
    base, www = server
    (www / "blob.bin").write_bytes(b"abc" * 1000)
    good = hashlib.sha256(b"abc" * 1000).hexdigest()
    dst = tmp_path / "dl" / "blob.bin"
    utils.download_url_to_file(f"{base}/blob.bin", str(dst), hash_prefix=good[:10], progress=False)
    assert dst.read_bytes() == b"abc" * 1000
    bad = tmp_path / "dl2" / "blob.bin"
    with pytest.raises(RuntimeError, match="checksum mismatch.*blob.bin"):
        utils.download_url_to_file(f"{base}/blob.bin", str(bad), hash_prefix="deadbeef", progress=False)
    assert os.listdir(bad.parent) == []  # nothing partial left
    with pytest.raises(RuntimeError, match="404|Not Found"):
        utils.download_url_to_file(f"{base}/missing.bin", str(tmp_path / "x.bin"), progress=False)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: connection refused, like an absent network
    url = f"http://127.0.0.1:{port}/a.tar.gz"
    with pytest.raises(RuntimeError, match=f"cannot download '{url}'"):
        ta.datasets.YESNO(tmp_path / "none", url=url, download=True)
    assert not (tmp_path / "none" / "a.tar.gz").exists()


def test_extract_errors(tmp_path):
    corrupt = tmp_path / "broken.tar.gz"
    good = tmp_path / "ok.tar.gz"
    (tmp_path / "f.txt").write_text("hello" * 1000)
    with tarfile.open(good, "w:gz") as tar:
        tar.add(tmp_path / "f.txt", arcname="d/f.txt")
    corrupt.write_bytes(good.read_bytes()[:60])
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="broken.tar.gz"):
        utils.extract_archive(str(corrupt), str(out))
    assert not out.exists() or os.listdir(out) == []
    (tmp_path / "notarchive.tar").write_text("plain text")
    with pytest.raises(RuntimeError, match="notarchive.tar"):
        utils.extract_archive(str(tmp_path / "notarchive.tar"), str(out))
    with pytest.raises(FileNotFoundError, match="nope.zip"):
        utils.extract_archive(str(tmp_path / "nope.zip"), str(out))
    assert utils.extract_archive(str(good), str(out)) == [str(out / "d" / "f.txt")]
    with pytest.raises(RuntimeError, match="dataset not found"):
        ta.datasets.YESNO(tmp_path / "empty")


def test_speechcommands_subsets(tmp_path):
    base = tmp_path / "SpeechCommands" / "speech_commands_v0.02"
    files = {}
    for i, rel in enumerate(["yes/aa11_nohash_0.wav", "yes/bb22_nohash_1.wav", "no/aa11_nohash_0.wav",
                             "no/cc33_nohash_2.wav", "_background_noise_/noise.wav"]):
        files[rel] = _wav(str(base / rel), seed=i)
    (base / "validation_list.txt").write_text("yes/bb22_nohash_1.wav\n")
    (base / "testing_list.txt").write_text("no/cc33_nohash_2.wav\n")
    full = ta.datasets.SPEECHCOMMANDS(tmp_path)
    assert len(full) == 4
    train = ta.datasets.SPEECHCOMMANDS(tmp_path, subset="training")
    assert [train[i][2:] for i in range(len(train))] == [("no", "aa11", 0), ("yes", "aa11", 0)]
    val = ta.datasets.SPEECHCOMMANDS(tmp_path, subset="validation")
    wave, sr, label, speaker, utt = val[0]
    assert (sr, label, speaker, utt) == (SR, "yes", "bb22", 1)
    np.testing.assert_allclose(wave.numpy()[0], files["yes/bb22_nohash_1.wav"])
    test = ta.datasets.SPEECHCOMMANDS(tmp_path, subset="testing")
    assert test[0][2:] == ("no", "cc33", 2)
    with pytest.raises(ValueError):
        ta.datasets.SPEECHCOMMANDS(tmp_path, subset="train")


def test_librispeech(tmp_path):
    chap = tmp_path / "LibriSpeech" / "dev-clean" / "84" / "121123"
    data = _wav(str(chap / "84-121123-0001.flac"), fmt="FLAC")
    _wav(str(chap / "84-121123-0000.flac"), seed=3, fmt="FLAC")
    (chap / "84-121123.trans.txt").write_text("84-121123-0000 GO DO YOU HEAR\n84-121123-0001 BUT IN LESS THAN\n")
    ds = ta.datasets.LIBRISPEECH(tmp_path, url="dev-clean")
    assert len(ds) == 2
    wave, sr, text, spk, ch, utt = ds[1]
    assert (sr, text, spk, ch, utt) == (SR, "BUT IN LESS THAN", 84, 121123, 1)
    np.testing.assert_allclose(wave.numpy()[0], data, atol=1e-4)


def test_ljspeech_and_vctk(tmp_path):
    lj = tmp_path / "LJSpeech-1.1"
    data = _wav(str(lj / "wavs" / "LJ001-0001.wav"))
    (lj / "metadata.csv").write_text('LJ001-0001|Printing, in the "only" sense|Printing, in the "only" sense\n')
    wave, sr, tr, norm = ta.datasets.LJSPEECH(tmp_path)[0]
    assert (sr, tr, norm) == (SR, 'Printing, in the "only" sense', 'Printing, in the "only" sense')
    np.testing.assert_allclose(wave.numpy()[0], data)
    v = tmp_path / "VCTK-Corpus-0.92"
    for spk in ["p225", "p280"]:
        (v / "txt" / spk).mkdir(parents=True)
        (v / "txt" / spk / f"{spk}_001.txt").write_text("Please call Stella.\n")
        _wav(str(v / "wav48_silence_trimmed" / spk / f"{spk}_001_mic2.flac"), fmt="FLAC")
    ds = ta.datasets.VCTK_092(tmp_path)
    assert len(ds) == 1  # p280 has no mic2 audio in the corpus: skipped
    wave, sr, text, spk, utt = ds[0]
    assert (sr, text, spk, utt) == (SR, "Please call Stella.\n", "p225", "001")
