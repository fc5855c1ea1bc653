"""The recomputation runs numpy's BLAS on one thread (attention/blas.py says why), and gives it back."""

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from attention import blas


def blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_one_thread_inside_the_block_and_the_setting_restored_after():
    assert blas_threads(), "numpy's BLAS was not found: the limit would do nothing"
    with threadpool_limits(2, user_api="blas"):  # a known count first (the app's tests leave 1 behind)
        with blas.one_thread():
            assert blas_threads() == {1}
            np.ones((64, 64)) @ np.ones((64, 64))
        assert blas_threads() == {2}


def test_only_numpys_blas_is_limited():
    """torch's own BLAS (MKL built into torch here; OpenBLAS in some wheels) must keep its threads."""
    numpy_dir = np.__file__.rsplit("/", 2)[0]  # site-packages: numpy's BLAS lives in numpy or scipy_openblas
    limited = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
    assert all("torch" not in lib["filepath"] and lib["filepath"].startswith(numpy_dir) for lib in limited)


def test_torch_keeps_its_threads():
    """Only numpy's BLAS is limited: torch's forward pass (MKL inside torch, OpenMP) keeps every core."""
    import torch

    before = torch.get_num_threads()
    with blas.one_thread():
        assert torch.get_num_threads() == before
        assert {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "openmp"} != {1} or before == 1
