"""Private numba kernels. They trust their inputs: public functions check and convert first."""
