# Training input of the native Python parser's profile-guided build (lib/python/native_build.ts):
# the server parses this file once, instrumented, so that the compiler learns which paths of
# tree-sitter's runtime and of the grammar are hot. Everyday Python: definitions, classes,
# imports, calls, comprehensions, strings, decorators. Never imported or run; editing it
# changes the build's key (a rebuild), nothing else. Made from this project's own code-model
# test modules (tests/fixtures/python, 2026-12-01), joined; not kept in step with them.

# --- defs/corpus/__init__.py
"""Corpus of definition shapes whose lines must equal CPython's ast."""


def top(a, b=1, *args, c: int = 2, **kw) -> int:
    """Doc."""
    return a  # trailing comment on the last statement
    # comment after the last statement

    # another one, after a blank line


@decorator
@decorator.with_args(1,
                     2)
def decorated():
    pass


async def coro():
    await thing()


class Plain:
    pass


class WithBody(Base, metaclass=Meta):
    """Class doc
    on two lines."""

    attr = 1

    def method(self):
        def nested():
            class InFunction:
                def deep(self): return 1
            return InFunction
        return nested

    @property
    def prop(self):
        return self._p

    @prop.setter
    def prop(self, v):
        self._p = v
# comment at column 0 inside nothing


def one_liner(): return 1; x = 2


def multiline_string_end():
    return """
    text
    """


def continuation():
    x = 1 + \
        2
    return x


if True:
    def in_if():
        pass
else:
    def in_if():
        pass

try:
    def in_try():
        pass
except ImportError:
    def in_try():
        pass
finally:
    pass


def ends_with_compound(x):
    for i in x:
        if i:
            pass
        # inner trailing comment
    else:
        pass
            # oddly indented comment


def ends_with_try():
    try:
        pass
    except Exception:
        pass  # c
    # c2


def paren_end(a,
              b):
    return (a,
            b,
            )


def match_end(v):
    match v:
        case [x, *rest]:
            return x
        case {"k": y}:
            return y
        case _:
            pass
    # tail


def with_end():
    with a as b, c as d:
        pass


class Empty: ...


def lambdas():
    f = lambda x: x
    return [lambda: i for i in range(3)]


def defaults(x=lambda: 1, y=[i for i in range(2)]):
    pass


def docstring_only():
    """Only a docstring."""


def decorated_class_holder():
    @dataclass
    class Inner:
        a: int = 0
    return Inner

# --- defs/corpus/_private/__init__.py
def _hidden():
    pass


class _Secret:
    def __init__(self):
        pass

    def visible(self):
        pass

# --- defs/corpus/crlf.py
"""CRLF line endings."""
def f():
    return 1


class C:
    def m(self):
        pass
    # c

# --- defs/corpus/formfeed.py
def g():
    x = 1

def h():
    pass

# --- defs/corpus/sub/__init__.py


# --- defs/corpus/sub/module.py
# -*- coding: utf-8 -*-
"""Non-ASCII: héllo 😀 — columns in UTF-16 must not shift lines."""
import os


def ünïcode(s="😀😀"):
    return s


class Outer:
    class Inner:
        class Innermost:
            def m(self):
                pass

    def after(self):
        x = {
            "a": 1,
        }
        return x


def tabs():
	return 1  # a tab-indented body


def semicolons(): a = 1; b = 2; return a + b

# --- resolve/classes/pkg/__init__.py


# --- resolve/classes/pkg/attrs.py
from .base import Base


class Holder:
    def __init__(self):
        self.base = Base()  # -> pkg.base.Base; dunder -> pkg.base.Base.__init__
        self.maybe = None

    def use(self):
        self.base.shared()  # -> pkg.base.Base.shared
        self.maybe.shared()  # -> unresolved: self.maybe.shared

    def local(self):
        b = Base()  # -> pkg.base.Base; dunder -> pkg.base.Base.__init__
        self.kept = b

    def use_kept(self):
        self.kept.setup()  # -> pkg.base.Base.setup

    def reassign(self):
        self.maybe = Base()  # -> pkg.base.Base; dunder -> pkg.base.Base.__init__


class Wrapped:
    def _impl():
        pass

    impl = staticmethod(_impl)  # -> builtins.staticmethod; ref -> pkg.attrs.Wrapped._impl

    def call(self):
        self.impl()  # -> pkg.attrs.Wrapped._impl


def run():
    pass


class Named:
    def __init__(self):
        self.run = None

    value = run()  # -> pkg.attrs.run


def typed(h: Holder, w: "Wrapped", n: int = 0, *rest: Holder):
    h.use()  # -> pkg.attrs.Holder.use
    w.call()  # -> unresolved: w.call
    n.bit_length()  # -> unresolved: n.bit_length

# --- resolve/classes/pkg/base.py
class Base:
    def __init__(self):
        self.setup()  # -> pkg.base.Base.setup

    def setup(self):
        pass

    def shared(self):
        pass

    @classmethod
    def create(cls):
        return cls()  # -> pkg.base.Base; dunder -> pkg.base.Base.__init__

    @staticmethod
    def static(self):
        self.setup()  # -> unresolved: self.setup

# --- resolve/classes/pkg/child.py
from .base import Base
from .mixins import Left, Right
from . import mixins


class Child(Base, Left, Right):
    def __init__(self):
        super().__init__()  # -> pkg.base.Base.__init__
        self.who()  # -> pkg.mixins.Left.who
        self.only_right()  # -> pkg.mixins.Right.only_right
        self.shared()  # -> pkg.base.Base.shared
        self.missing()  # -> unresolved: self.missing

    def setup(self):
        super().setup()  # -> pkg.base.Base.setup


class Diamond(Left, mixins.Right):
    def go(self):
        self.only_right()  # -> pkg.mixins.Right.only_right
        Child.setup(self)  # -> pkg.child.Child.setup


def build():
    c = Child()  # -> pkg.child.Child; dunder -> pkg.child.Child.__init__
    c.who()  # -> pkg.mixins.Left.who
    c.setup()  # -> pkg.child.Child.setup
    Base.create()  # -> pkg.base.Base.create
    Child().shared()  # -> pkg.child.Child; dunder -> pkg.child.Child.__init__; -> pkg.base.Base.shared
    b = Base()  # -> pkg.base.Base; dunder -> pkg.base.Base.__init__
    b.setup()  # -> pkg.base.Base.setup
    m = Left()  # -> pkg.mixins.Left
    m.only_left()  # -> pkg.mixins.Left.only_left

# --- resolve/classes/pkg/diamond.py
class A:
    def f(self):
        pass


class B(A):
    pass


class C(A):
    def f(self):
        pass


class D(B, C):
    def g(self):
        self.f()  # -> pkg.diamond.C.f


class Outer:
    class Inner:
        def h(self):
            pass

    def make(self):
        return self.Inner().h()  # -> pkg.diamond.Outer.Inner; -> pkg.diamond.Outer.Inner.h

# --- resolve/classes/pkg/dunders.py
"""Dunders that call syntax runs (kind `dunder`) and decorators applied (kind `decorator`)."""
import functools

from .base import Base


class Interned:
    def __new__(cls, name):
        return super().__new__(cls)  # -> unresolved: super().__new__; ref -> pkg.dunders.Interned

    def __init__(self, name):
        self.name = name


class Sub(Interned):
    pass


class Counter:
    def __call__(self, f):
        return f


class Registry:
    def __init__(self, f):
        self.f = f


counter = Counter()  # -> pkg.dunders.Counter


def make():
    a = Interned("x")  # -> pkg.dunders.Interned; implicit -> pkg.dunders.Interned.__new__; dunder -> pkg.dunders.Interned.__init__
    b = Sub("y")  # -> pkg.dunders.Sub; implicit -> pkg.dunders.Interned.__new__; dunder -> pkg.dunders.Interned.__init__
    counter(a)  # dunder -> pkg.dunders.Counter.__call__
    return b, Base()  # -> pkg.base.Base; dunder -> pkg.base.Base.__init__


@counter  # dunder -> pkg.dunders.Counter.__call__
def counted():
    pass


@Registry  # decorator -> pkg.dunders.Registry; dunder -> pkg.dunders.Registry.__init__
def registered():
    pass


@functools.lru_cache  # decorator -> unresolved: functools.lru_cache
def cached():
    pass


@functools.lru_cache(maxsize=2)  # -> unresolved: functools.lru_cache
def cached_two():
    pass


@staticmethod  # decorator -> builtins.staticmethod
def plain():
    pass

# --- resolve/classes/pkg/mixins.py
class Left:
    def who(self):
        pass

    def only_left(self):
        pass


class Right:
    def who(self):
        pass

    def only_right(self):
        pass

# --- resolve/implicit/pkg/__init__.py


# --- resolve/implicit/pkg/bags.py
class Bag:
    def __iter__(self):
        return self

    def __next__(self):
        raise StopIteration


class Lazy(Bag):
    """Inherits both iterator dunders."""


class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Stream:
    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False


class Failure(Exception):
    def __init__(self):
        super().__init__("failed")


class Plain:
    pass

# --- resolve/implicit/pkg/use.py
from .bags import Bag, Failure, Lazy, Plain, Session, Stream


def loops(items):
    bag = Bag()  # -> pkg.bags.Bag
    for x in bag:  # implicit -> pkg.bags.Bag.__iter__; implicit -> pkg.bags.Bag.__next__
        pass
    for y in Lazy():  # -> pkg.bags.Lazy; implicit -> pkg.bags.Bag.__iter__; implicit -> pkg.bags.Bag.__next__
        pass
    for z in items:  # an unknown value runs nothing we can name
        pass
    for w in Plain():  # -> pkg.bags.Plain
        pass
    return [v for v in bag]  # implicit -> pkg.bags.Bag.__iter__; implicit -> pkg.bags.Bag.__next__


def contexts():
    with Session() as s:  # -> pkg.bags.Session; implicit -> pkg.bags.Session.__enter__; implicit -> pkg.bags.Session.__exit__
        return s


async def streams():
    async for chunk in Stream():  # -> pkg.bags.Stream; implicit -> pkg.bags.Stream.__aiter__; implicit -> pkg.bags.Stream.__anext__
        pass
    async with Stream() as st:  # -> pkg.bags.Stream; implicit -> pkg.bags.Stream.__aenter__; implicit -> pkg.bags.Stream.__aexit__
        return st


def fail(flag):
    if flag:
        raise Failure  # ref -> pkg.bags.Failure; implicit -> pkg.bags.Failure.__init__
    raise Failure()  # -> pkg.bags.Failure; dunder -> pkg.bags.Failure.__init__


def opened():
    return Session()  # -> pkg.bags.Session


def via_factory():
    with opened() as s:  # -> pkg.use.opened; implicit -> pkg.bags.Session.__enter__; implicit -> pkg.bags.Session.__exit__
        return s

# --- resolve/imports/pkg/__init__.py


# --- resolve/imports/pkg/main.py
import os
import os.path
import pkg.util
import pkg.util as u
import pkg.sub.deep as deep_mod
from pkg.util import helper as h
from . import util
from .sub import dig
from .sub.deep import dig as dig2
from . import sub

try:
    import numpy as np
except ImportError:
    np = None

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .util import Tool


def use_imports(obj):
    pkg.util.helper(1)  # -> pkg.util.helper
    u.other()  # -> pkg.util.other
    h(2)  # -> pkg.util.helper
    util.helper(3)  # -> pkg.util.helper
    dig()  # -> pkg.sub.deep.dig
    dig2()  # -> pkg.sub.deep.dig
    sub.deep.dig()  # -> pkg.sub.deep.dig
    deep_mod.dig()  # -> pkg.sub.deep.dig
    os.path.join("a", "b")  # -> unresolved: os.path.join
    np.asarray([1])  # -> unresolved: np.asarray
    t = Tool()  # -> pkg.util.Tool
    t.run()  # -> pkg.util.Tool.run
    util.nothing()  # -> unresolved: util.nothing
    obj.method()  # -> unresolved: obj.method
    h(2).strip()  # -> pkg.util.helper; -> unresolved: h().strip


def inside_function():
    from .util import other as o
    import pkg.sub.deep

    o()  # -> pkg.util.other
    pkg.sub.deep.dig()  # -> pkg.sub.deep.dig


helper = h  # ref -> pkg.util.helper
helper(0)  # -> pkg.util.helper

# --- resolve/imports/pkg/sub/__init__.py
from .deep import dig

# --- resolve/imports/pkg/sub/deep.py
from ..util import helper


def dig():
    return helper(1)  # -> pkg.util.helper

# --- resolve/imports/pkg/util.py
def helper(x):
    return x


def other():
    pass


class Tool:
    def run(self):
        pass

# --- resolve/reexport/pkg/__init__.py
from .api import public_impl, alias

# --- resolve/reexport/pkg/api.py
from .core import impl as public_impl

alias = public_impl  # ref -> pkg.core.impl

# --- resolve/reexport/pkg/core.py
def impl():
    pass

# --- resolve/reexport/pkg/user.py
import pkg
from pkg import alias
from . import api
from .api import alias as again

chained = again  # ref -> pkg.core.impl


def use():
    pkg.public_impl()  # -> pkg.core.impl
    alias()  # -> pkg.core.impl
    api.alias()  # -> pkg.core.impl
    chained()  # -> pkg.core.impl
    pkg.api.public_impl()  # -> pkg.core.impl

# --- resolve/references/pkg/__init__.py


# --- resolve/references/pkg/refs.py
from .util import helper
import pkg.util as u


def key_fn(x):
    return x


def deco(f):
    return f


def run(xs):
    list(map(helper, xs))  # -> builtins.list; -> builtins.map; ref -> pkg.util.helper
    sorted(xs, key=key_fn)  # -> builtins.sorted; ref -> pkg.refs.key_fn
    table = {"a": helper, "b": u.helper}  # ref -> pkg.util.helper
    cb = key_fn  # ref -> pkg.refs.key_fn
    cb(1)  # -> pkg.refs.key_fn
    return table


@deco  # decorator -> pkg.refs.deco
def decorated():
    return [key_fn]  # ref -> pkg.refs.key_fn


HANDLERS = (helper, key_fn)  # ref -> pkg.util.helper; ref -> pkg.refs.key_fn


def unpack():
    first, (second, third) = helper, (key_fn, deco)  # ref -> pkg.util.helper; ref -> pkg.refs.key_fn; ref -> pkg.refs.deco
    first(1)  # -> pkg.util.helper
    second(2)  # -> pkg.refs.key_fn
    third(3)  # -> pkg.refs.deco
    # a starred unpacking is not paired: `one` stays unknown
    one, *rest = key_fn, deco  # ref -> pkg.refs.key_fn; ref -> pkg.refs.deco
    one(4)  # -> unresolved: one
    return rest


def dispatch():
    ops = {"key": key_fn, "nested": {"deco": deco}, "help": helper}
    ops["key"](1)  # -> pkg.refs.key_fn
    ops["nested"]["deco"](2)  # -> pkg.refs.deco
    ops["key"] = helper  # an overwritten element is what later reads call
    ops["key"](3)  # -> pkg.util.helper
    pair = [key_fn, helper]
    return pair[1](4)  # -> pkg.util.helper


def escaping(name):
    table = {"key": key_fn, "deco": deco}  # ref -> pkg.refs.key_fn; ref -> pkg.refs.deco
    return table[name]()  # a computed key reads any element: every element stays a reference


def make_key():
    return key_fn  # ref -> pkg.refs.key_fn


def make_either(flag):
    if flag:
        return key_fn  # ref -> pkg.refs.key_fn
    return deco  # ref -> pkg.refs.deco


def returned():
    fn = make_key()  # -> pkg.refs.make_key
    fn(1)  # -> pkg.refs.key_fn
    make_key()(2)  # -> pkg.refs.make_key; -> pkg.refs.key_fn
    other = make_either(True)  # -> pkg.refs.make_either
    other(3)  # -> unresolved: other
    return make_either(False)(4)  # -> pkg.refs.make_either

# --- resolve/references/pkg/util.py
def helper(x):
    return x

# --- resolve/scoping/pkg/__init__.py


# --- resolve/scoping/pkg/scopes.py
def f():
    pass


def helper():
    pass


class K:
    def f(self):
        pass

    g = f  # ref -> pkg.scopes.K.f

    def m(self):
        f()  # -> pkg.scopes.f
        self.f()  # -> pkg.scopes.K.f
        self.g()  # -> pkg.scopes.K.f

    items = [f for _ in range(3)]  # ref -> pkg.scopes.f; -> builtins.range


def setup():
    global handler

    def handler():
        pass


def use_global():
    handler()  # -> pkg.scopes.setup.handler


def outer():
    def cb():
        pass

    def inner():
        nonlocal cb
        cb = make_cb()  # -> unresolved: make_cb

    cb()  # -> pkg.scopes.outer.cb
    inner()  # -> pkg.scopes.outer.inner


def comp(xs):
    return [f(x) for f in xs for x in f]  # -> unresolved: f


def no_leak():
    [helper for helper in range(2)]  # -> builtins.range
    helper()  # -> pkg.scopes.helper


def outer2():
    def helper():
        pass

    def inner():
        helper()  # -> pkg.scopes.outer2.helper
        f()  # -> pkg.scopes.f

    return inner  # ref -> pkg.scopes.outer2.inner


lam = lambda f: f()  # -> unresolved: f

# --- resolve/shadowing/pkg/__init__.py


# --- resolve/shadowing/pkg/mod.py
from pkg.util import helper, tool


def helper(x):
    return x


def caller():
    helper(1)  # -> pkg.mod.helper
    tool()  # -> unresolved: tool


tool()  # -> pkg.util.tool
helper(0)  # -> pkg.mod.helper
tool = lambda: None


def with_param(helper):
    helper(2)  # -> unresolved: helper


def local_assign():
    helper = make()  # -> unresolved: make
    helper()  # -> unresolved: helper


def local_def():
    def tool():
        pass

    tool()  # -> pkg.mod.local_def.tool


def loop(items):
    for helper in items:
        helper()  # -> unresolved: helper

# --- resolve/shadowing/pkg/util.py
def helper(x):
    return x


def tool():
    pass

# --- resolve/star/pkg/__init__.py


# --- resolve/star/pkg/no_all.py
from .with_all import exported as reexported


def public():
    pass


def _private():
    pass

# --- resolve/star/pkg/user.py
from .with_all import *
from .no_all import *
from numpy import *


def use():
    exported()  # -> pkg.with_all.exported
    not_exported()  # -> unresolved: not_exported
    public()  # -> pkg.no_all.public
    _private()  # -> unresolved: _private
    reexported()  # -> pkg.with_all.exported
    asarray([1])  # -> unresolved: asarray

# --- resolve/star/pkg/with_all.py
__all__ = ["exported"]


def exported():
    pass


def not_exported():
    pass
