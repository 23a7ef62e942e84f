"""torchaudio.load / save / info through soundfile: real files on disk, checked against libsndfile itself."""
import io
import os

import numpy as np
import pytest
import soundfile

import mindtorch.torch as torch
import mindtorch.torchaudio as torchaudio

RATE = 8000


def _pcm(n=400, ch=2, seed=0):
    rng = np.random.RandomState(seed)
    return rng.randint(-32768, 32767, size=(n, ch)).astype(np.int16)


@pytest.mark.parametrize("subtype,scale,raw_dtype", [
    ("PCM_16", 2.0 ** 15, torch.int16), ("PCM_32", 2.0 ** 31, torch.int32), ("FLOAT", 1.0, torch.float32)])
def test_load_wav_scaling_and_raw(tmp_path, subtype, scale, raw_dtype):
    path = tmp_path / f"a_{subtype}.wav"
    ref_int = _pcm()
    data = ref_int.astype(np.float32) / 32768.0 if subtype == "FLOAT" else ref_int
    if subtype == "PCM_32":
        data = ref_int.astype(np.int32) << 16
    soundfile.write(path, data, RATE, subtype=subtype)
    wav, sr = torchaudio.load(str(path))
    assert sr == RATE and tuple(wav.shape) == (2, 400) and wav.dtype == torch.float32
    expected = soundfile.read(path, dtype="float32", always_2d=True)[0].T
    np.testing.assert_array_equal(wav.numpy(), expected)
    if subtype != "FLOAT":  # torchaudio's integer PCM scaling: divide by 2**(bits-1)
        np.testing.assert_allclose(wav.numpy(), data.T.astype(np.float64) / scale, rtol=0, atol=1e-7)
    raw, _ = torchaudio.load(path, normalize=False)
    assert raw.dtype == raw_dtype
    if subtype != "FLOAT":
        np.testing.assert_array_equal(raw.numpy(), data.T)


def test_load_uint8_and_24bit_raw(tmp_path):
    u8 = np.arange(256, dtype=np.uint8).reshape(-1, 1)
    path = tmp_path / "u8.wav"
    torchaudio.save(str(path), torch.from_numpy(u8.T.copy()), RATE)
    assert soundfile.info(path).subtype == "PCM_U8"
    raw, _ = torchaudio.load(path, normalize=False)
    assert raw.dtype == torch.uint8
    np.testing.assert_array_equal(raw.numpy(), u8.T)
    norm, _ = torchaudio.load(path)
    np.testing.assert_allclose(norm.numpy(), (u8.T.astype(np.float32) - 128) / 128, atol=1e-7)

    i24 = (np.arange(-1000, 1000, dtype=np.int32) * 4096).reshape(-1, 1)
    p24 = tmp_path / "i24.wav"
    soundfile.write(p24, i24 << 8, RATE, subtype="PCM_24")
    meta = torchaudio.info(str(p24))
    assert (meta.bits_per_sample, meta.encoding) == (24, "PCM_S")
    raw, _ = torchaudio.load(p24, normalize=False)
    assert raw.dtype == torch.int32  # left-justified 32-bit, as sox returns
    np.testing.assert_array_equal(raw.numpy(), (i24 << 8).T)


def test_frame_offset_num_frames_channels_last(tmp_path):
    path = tmp_path / "b.wav"
    data = _pcm(1000, 3)
    soundfile.write(path, data, RATE, subtype="PCM_16")
    wav, _ = torchaudio.load(path, frame_offset=100, num_frames=250, channels_first=False)
    assert tuple(wav.shape) == (250, 3)
    np.testing.assert_allclose(wav.numpy(), data[100:350] / 32768.0, atol=1e-7)


@pytest.mark.parametrize("fmt,subtype,enc,bits", [("flac", "PCM_16", "FLAC", 16), ("wav", "FLOAT", "PCM_F", 32)])
def test_save_roundtrip_and_info(tmp_path, fmt, subtype, enc, bits):
    x = torch.from_numpy((np.sin(np.linspace(0, 50, 800)) * 0.5).astype(np.float32).reshape(1, -1))
    path = tmp_path / f"c.{fmt}"
    torchaudio.save(str(path), x, 16000)
    meta = torchaudio.info(str(path))
    assert (meta.sample_rate, meta.num_frames, meta.num_channels) == (16000, 800, 1)
    assert (meta.bits_per_sample, meta.encoding) == (bits, enc)
    assert soundfile.info(path).subtype == subtype
    back, sr = torchaudio.load(str(path))
    sfr = soundfile.read(path, dtype="float32", always_2d=True)[0].T
    np.testing.assert_array_equal(back.numpy(), sfr)  # load == libsndfile's own read
    np.testing.assert_allclose(back.numpy(), x.numpy(), atol=1.0 / 32768 if fmt == "flac" else 0)


def test_save_int16_exact_and_encodings(tmp_path):
    data = _pcm(300, 2)
    path = tmp_path / "d.wav"
    torchaudio.save(path, torch.from_numpy(data.T.copy()), RATE)
    assert soundfile.info(path).subtype == "PCM_16"
    np.testing.assert_array_equal(soundfile.read(path, dtype="int16")[0], data)
    x = torch.from_numpy(data.T.astype(np.float32) / 32768)
    torchaudio.save(path, x, RATE, encoding="PCM_S", bits_per_sample=16)
    np.testing.assert_array_equal(soundfile.read(path, dtype="int16")[0], data)
    torchaudio.save(path, x, RATE, encoding="ULAW")
    assert torchaudio.info(path).encoding == "ULAW"
    with pytest.raises(ValueError, match="8-bit signed"):
        torchaudio.save(path, x, RATE, encoding="PCM_S", bits_per_sample=8)


def test_file_objects(tmp_path):
    x = torch.from_numpy(np.linspace(-0.5, 0.5, 200, dtype=np.float32).reshape(1, -1))
    buf = io.BytesIO()
    torchaudio.save(buf, x, RATE, format="wav")
    buf.seek(0)
    back, sr = torchaudio.load(buf)
    np.testing.assert_array_equal(back.numpy(), x.numpy())
    with pytest.raises(RuntimeError, match="format"):
        torchaudio.save(io.BytesIO(), x, RATE)


def test_bad_inputs_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.wav"):
        torchaudio.load(str(tmp_path / "missing.wav"))
    bad = tmp_path / "corrupt.wav"
    bad.write_bytes(b"RIFF\x00\x00\x00\x00WAVEfmt garbage" * 3)
    with pytest.raises(RuntimeError, match="corrupt.wav"):
        torchaudio.load(str(bad))
    with pytest.raises(RuntimeError, match="corrupt.wav"):
        torchaudio.info(str(bad))
    with pytest.raises(ValueError, match="2D"):
        torchaudio.save(str(tmp_path / "x.wav"), torch.zeros(5), RATE)


def test_failed_save_is_atomic(tmp_path):
    path = tmp_path / "keep.wav"
    good = torch.from_numpy(np.zeros((1, 100), np.float32))
    torchaudio.save(str(path), good, RATE)
    before = path.read_bytes()
    with pytest.raises(ValueError):
        torchaudio.save(str(path), good, RATE, encoding="PCM_F", bits_per_sample=16)  # invalid combination
    with pytest.raises(ValueError):
        torchaudio.save(str(tmp_path / "keep.xyz"), good, RATE)  # unsupported format
    with pytest.raises(Exception):  # libsndfile refuses while writing (after the temporary file exists)
        torchaudio.save(str(path), good, 0)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["keep.wav"]  # no temporary files left behind


def test_backend_helpers():
    assert torchaudio.list_audio_backends() == ["soundfile"]
    torchaudio.set_audio_backend("soundfile")
    assert torchaudio.get_audio_backend() == "soundfile"
    with pytest.raises(RuntimeError, match="sox"):
        torchaudio.set_audio_backend("sox_io")
