"""torch.reshape(x, s), torch.cat([...]), torch.split(x, 2), torch.gather(...) ...: the
function forms of Tensor's shape and indexing methods (tensor_shape.py), and the
questions about a tensor (torch.is_tensor, numel ...).  cat and stack are written
here; each of the others calls a Tensor method."""
from ..ops import combine
from ..ops.arithmetic import is_tensor as _is_tensor
from . import arguments


@arguments.function
def reshape(x, shape):
    return x.reshape(shape)


@arguments.function
def flatten(x, start_dim=0, end_dim=-1):
    return x.flatten(start_dim, end_dim)


@arguments.function
def transpose(x, dim0, dim1):
    return x.transpose(dim0, dim1)


@arguments.function
def t(x):
    return x.t()


@arguments.function
def permute(x, dims):
    return x.permute(dims)


@arguments.function
def squeeze(x, dim=None):
    return x.squeeze() if dim is None else x.squeeze(dim)


@arguments.function
def unsqueeze(x, dim):
    return x.unsqueeze(dim)


@arguments.function
def clone(x):
    return x.clone()


@arguments.function
def numel(x):
    return x.numel()


@arguments.function
def is_floating_point(x):
    return x.is_floating_point()


@arguments.function
def is_inference(x):
    return x.is_inference()


def is_tensor(obj):
    """True for a minigrad Tensor (torch.is_tensor)."""
    return _is_tensor(obj)


@arguments.function
def cat(tensors, dim=0):
    _check_sequence(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return combine.Cat.apply(dim, *tensors)


@arguments.function
def stack(tensors, dim=0):
    _check_sequence(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return combine.Stack.apply(dim, *tensors)


def _check_sequence(tensors, name):
    """cat(a, b) instead of cat([a, b]): PyTorch's TypeError."""
    if _is_tensor(tensors):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        "not Tensor")


@arguments.reads_first
@arguments.function
def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


@arguments.function
def split_with_sizes(input, split_sizes, dim=0):
    return input.split_with_sizes(split_sizes, dim)


@arguments.function
def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


@arguments.function
def unsafe_split(input, split_size, dim=0):
    return input.unsafe_split(split_size, dim)


@arguments.function
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return input.unsafe_split_with_sizes(split_sizes, dim)


@arguments.function
def unsafe_chunk(input, chunks, dim=0):
    return input.unsafe_chunk(chunks, dim)


@arguments.function
def unbind(input, dim=0):
    return input.unbind(dim)


@arguments.function
def narrow(input, dim, start, length):
    return input.narrow(dim, start, length)


@arguments.function
def movedim(input, source, destination):
    return input.movedim(source, destination)


moveaxis = arguments.function_alias("moveaxis", movedim)


@arguments.function
def swapaxes(input, axis0, axis1):
    return input.swapaxes(axis0, axis1)


@arguments.function
def swapdims(input, dim0, dim1):
    return input.transpose(dim0, dim1)


@arguments.function
def gather(input, dim, index):
    return input.gather(dim, index)


@arguments.function
def index_select(input, dim, index):
    return input.index_select(dim, index)


@arguments.function
def flip(input, dims):
    return input.flip(dims)


@arguments.function
def roll(input, shifts, dims=None):
    return input.roll(shifts, dims)


@arguments.function
def diag(input, diagonal=0):
    return input.diag(diagonal)


@arguments.function
def diagonal(input, offset=0, dim1=0, dim2=1):
    return input.diagonal(offset, dim1, dim2)


@arguments.function
def trace(input):
    return input.trace()


@arguments.function
def select(input, dim, index):
    return input.select(dim, index)


@arguments.function
def index_add(input, dim, index, source, *, alpha=1):
    return input.index_add(dim, index, source, alpha=alpha)


@arguments.function
def index_fill(input, dim, index, value):
    return input.index_fill(dim, index, value)


@arguments.function
def unflatten(input, dim, sizes):
    return input.unflatten(dim, sizes)


@arguments.function
def tensor_split(input, indices_or_sections, dim=0):
    return input.tensor_split(indices_or_sections, dim)


@arguments.function
def tril(input, diagonal=0):
    return input.tril(diagonal)


@arguments.function
def triu(input, diagonal=0):
    return input.triu(diagonal)


@arguments.function
def take_along_dim(input, indices, dim=None):
    return input.take_along_dim(indices, dim)


__all__ = [name for name, value in list(globals().items())     # the functions defined here
           if not name.startswith("_") and getattr(value, "__module__", None) == __name__]
