"""llama.cpp (llama-cpp-python) in one of the two configurations the comparison knows, for
llama_cpp_round.py and llama_cpp_prompts.py: `defaults` (as a user gets it) or
`no-extra-buffer-types`.

    from llama_cpp_configured import configured
    Llama, low = configured(configuration)
"""

import sys

import llama_cpp.llama_cpp as low


def configured(configuration):
    """llama-cpp-python's `Llama` class and its low-level module, in `configuration`; exits
    naming the two it knows otherwise."""
    if configuration not in ("defaults", "no-extra-buffer-types"):
        sys.exit(f"configuration {configuration!r} is not defaults or no-extra-buffer-types")
    if configuration == "no-extra-buffer-types":
        # llama.cpp's "extra buffer types" (weights repacked for AMX and other kernels), on by
        # default, turned off: on a CPU that reports AMX, its AMX product crashed (a segmentation
        # fault in ggml_backend_amx_mul_mat) on one Intel Xeon. The plain CPU kernels run instead.
        defaults = low.llama_model_default_params

        def without_extra_buffers():
            params = defaults()
            params.use_extra_bufts = False
            return params

        low.llama_model_default_params = without_extra_buffers
    # imported after the change above, which it reads at load
    from llama_cpp import Llama

    return Llama, low
