"""Short kernel names: a GPU kernel's name is its full C++ signature (CUTLASS, cuBLAS and ATen
template instantiations run to thousands of characters), which no table row or bar label can
hold. The short name is the function's own name, with the template's main argument folded to
its name when the function is a generic launcher (`elementwise_kernel<MulFunctor>`,
`Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>`); namespaces, other template
arguments and the parameter list are dropped. Itanium-mangled names (`_ZN...`, as ROCm traces
and some cuDNN kernels carry them) are read the same way without a full demangler. The full
name stays the kernel's identity everywhere; the short name is only what is shown first.
Pure functions over strings.
"""

from __future__ import annotations

import re

# template arguments that say nothing about what a kernel does: numbers, casts of numbers,
# and scalar types
_TRIVIAL_ARGUMENT = re.compile(
    r"-?\d+[a-z]*|\(.*\)-?\d+|true|false|"
    r"(?:(?:unsigned|signed|const|long|short)\s+)*(?:int|long|char|short|float|double|bool|"
    r"unsigned|__half|__nv_bfloat16|half|bfloat16)\*?|"
    r"(?:c10|at)::(?:Half|BFloat16|complex<[^<>]*>|Float8_\w+)|"
    r"(?:u?int(?:8|16|32|64)_t)"
)
# launchers whose first template argument is what the kernel computes: show that argument
_LAUNCHERS = re.compile(
    r".*elementwise_kernel\w*|.*reduce_kernel\w*|gpu_kernel_impl\w*|gpu_index_kernel|"
    r"Kernel\d*|kernel|device_kernel|[A-Z]?\w*Functor|func_wrapper_t|ReduceOp|"
    r"index_elementwise_kernel|.*_grid_stride_kernel|.*_with_index_kernel"
)
_OPENERS = {"<": ">", "(": ")", "{": "}", "[": "]"}
_ANONYMOUS = "(anonymous namespace)"
_MAX_HINT_DEPTH = 4  # launchers nest (elementwise_kernel<gpu_kernel_impl<BinaryFunctor<...>>>)


def short_kernel_name(name: str) -> str:
    """The kernel's short name (see the module docstring); `name` itself when it is already
    a plain identifier, or when it cannot be read."""
    text = name.strip()
    if text.startswith("_Z"):
        return _short_mangled(text) or text
    text = re.sub(r"^void\s+", "", text)
    if not any(c in text for c in "<(:"):
        return text
    short = _short_expression(text)
    return short or text


def _split_top(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside any brackets (`operator()` counts as a name)."""
    parts, depth, start, i = [], 0, 0, 0
    closers = set(_OPENERS.values())
    while i < len(text):
        if text.startswith("operator()", i):
            i += len("operator()")
            continue
        c = text[i]
        if c in _OPENERS:
            depth += 1
        elif c in closers:
            depth = max(depth - 1, 0)
        elif depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _bracketed(text: str, at: int) -> int:
    """The index just past the bracket group opening at `text[at]` (len(text) if unclosed)."""
    depth = 0
    for i in range(at, len(text)):
        if text[i] in _OPENERS:
            depth += 1
        elif text[i] in _OPENERS.values():
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _named_component(text: str) -> tuple[str, str]:
    """The identifier of the innermost named thing of a qualified C++ expression (not a
    lambda, an operator() or an anonymous namespace) and what follows it (its template
    arguments, parameters); ("", "") if none."""
    components = [c.strip() for c in _split_top(text.replace(_ANONYMOUS, ""), "::")]
    for component in reversed(components):
        match = re.match(r"[A-Za-z_~]\w*", component)
        if match and not component.startswith("operator"):
            return match.group(0), component[match.end() :].lstrip()
    return "", ""


def _main_argument(arguments: str) -> str | None:
    """The first template argument that is not a number or a scalar type."""
    for argument in _split_top(arguments, ","):
        argument = argument.strip()
        if argument and not _TRIVIAL_ARGUMENT.fullmatch(argument):
            return argument
    return None


def _launched(identifier: str, rest: str, depth: int) -> str | None:
    """For a launcher with template arguments: the name of what it launches (through nested
    launchers), else None."""
    if depth >= _MAX_HINT_DEPTH or not rest.startswith("<") or not _LAUNCHERS.fullmatch(identifier):
        return None
    argument = _main_argument(rest[1 : _bracketed(rest, 0) - 1])
    if argument is None:
        return None
    inner, inner_rest = _named_component(argument)
    if not inner:
        return None
    return _launched(inner, inner_rest, depth + 1) or inner


def _short_expression(text: str) -> str:
    """The short name of a demangled signature (the return type already dropped)."""
    identifier, rest = _named_component(text)
    if not identifier:
        return ""
    launched = _launched(identifier, rest, 0)
    return f"{identifier}<{launched}>" if launched else identifier


def _source_names(mangled: str, at: int) -> tuple[list[str], int]:
    """The <length><identifier> names of a mangled nested name from `at`, skipping
    substitutions (`S_`, `S1_`, `St`) and anonymous namespaces, up to its template
    arguments ('I') or its end ('E'); and where it stopped."""
    names = []
    while at < len(mangled):
        if mangled[at] in "IE":
            break
        substitution = re.match(r"S[0-9A-Z]*_|St|Sa|Ss", mangled[at:])
        if substitution:
            at += substitution.end()
            continue
        if mangled[at] in "LK":  # const/local qualifiers
            at += 1
            continue
        length = re.match(r"\d+", mangled[at:])
        if not length:
            break
        start = at + length.end()
        identifier = mangled[start : start + int(length.group(0))]
        at = start + int(length.group(0))
        if not identifier.startswith("_GLOBAL__N"):
            names.append(identifier)
    return names, at


def _short_mangled(mangled: str) -> str:
    """A mangled kernel's function name, and for a launcher the name of its first template
    argument's type."""
    nested = mangled.startswith("_ZN")
    names, at = _source_names(mangled, 3 if nested else 2)
    if not names:
        return ""
    identifier = names[-1]
    if at < len(mangled) and mangled[at] == "I" and _LAUNCHERS.fullmatch(identifier):
        argument = at + 1
        if mangled.startswith("N", argument):
            argument += 1
        hint, _ = _source_names(mangled, argument)
        if hint:
            return f"{identifier}<{hint[-1]}>"
    return identifier
