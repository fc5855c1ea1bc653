"""The recomputation runs numpy's BLAS on one thread (attention/blas.py says why), and gives it back."""

import numpy as np
from threadpoolctl import threadpool_info

from attention import blas


def blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_one_thread_inside_the_block_and_the_setting_restored_after():
    assert blas_threads(), "numpy's BLAS was not found: the limit would do nothing"
    before = blas_threads()
    with blas.one_thread():
        assert blas_threads() == {1}
        np.ones((64, 64)) @ np.ones((64, 64))
    assert blas_threads() == before


def test_torch_keeps_its_threads():
    """Only numpy's BLAS is limited: torch's forward pass (MKL inside torch, OpenMP) keeps every core."""
    import torch

    before = torch.get_num_threads()
    with blas.one_thread():
        assert torch.get_num_threads() == before
        assert {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "openmp"} != {1} or before == 1
