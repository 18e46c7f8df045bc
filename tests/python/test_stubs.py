# SPDX-License-Identifier: GPL-3.0-or-later
"""The type stub the build generates (python/generate_stubs.py): it parses, holds every
public name with the methods the code has, and one TypedDict per model with every declared
parameter and its type."""
import ast
import inspect
import os

import cellforge

STUB = os.path.join(os.path.dirname(cellforge.__file__), "__init__.pyi")
TYPES = {"real": "float", "integer": "int", "boolean": "bool", "text": "str", "choice": "str",
         "file": "str"}


def parsed():
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read())


def test_stub_is_there_and_marked_typed():
    assert os.path.isfile(STUB)
    assert os.path.isfile(os.path.join(os.path.dirname(STUB), "py.typed"))


def test_every_public_name_and_method_is_in_the_stub():
    tree = parsed()
    defined = {node.name: node for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    for name in cellforge.__all__:
        assert name in defined, f"{name} missing from the stub"
    methods = {n.name for n in defined["Simulation"].body if isinstance(n, ast.FunctionDef)}
    public = {name for name, value in vars(cellforge.Simulation).items()
              if not name.startswith("_") and (inspect.isfunction(value)
                                               or isinstance(value, (property, classmethod)))}
    assert public <= methods, f"not in the stub: {sorted(public - methods)}"


def test_one_typed_dict_per_model_from_the_declarations():
    tree = parsed()
    dicts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                getattr(node.value.func, "id", "") == "TypedDict":
            fields = node.value.args[1]
            dicts[node.targets[0].id] = {k.value: v.id for k, v in zip(fields.keys, fields.values)}
    for model in cellforge.models():
        name = "".join(p.capitalize() for p in model.split("_")) + "Parameters"
        declared = cellforge.model_parameters(model)
        assert dicts[name] == {key: TYPES[p.type] for key, p in declared.items()}, model
