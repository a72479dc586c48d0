"""Plan properties over random configs: the encoding round-trips, compiling is deterministic."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings

import strategies_judge as sj

from polydeukes.compiler import compile_config
from polydeukes.vm import planfile
from polydeukes.vm.plan import Plan

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(config=sj.configs())
def test_plan_encoding_round_trips(config):
    raw = config.encode("utf-8")
    plan = compile_config("/project", "polydeukes.config.yaml", raw).plan
    key = planfile.plan_key("polydeukes.config.yaml", raw)
    assert planfile.decode_plan(planfile.encode_plan(plan, key), key) == plan
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(plan), type=Plan) == plan


@SETTINGS
@given(config=sj.configs())
def test_compiling_is_deterministic(config):
    raw = config.encode("utf-8")
    first = compile_config("/project", "polydeukes.config.yaml", raw).plan
    second = compile_config("/project", "polydeukes.config.yaml", raw).plan
    key = planfile.plan_key("polydeukes.config.yaml", raw)
    assert planfile.encode_plan(first, key) == planfile.encode_plan(second, key)


@SETTINGS
@given(config=sj.configs())
def test_a_plan_for_other_bytes_is_never_trusted(config):
    raw = config.encode("utf-8")
    plan = compile_config("/project", "polydeukes.config.yaml", raw).plan
    data = planfile.encode_plan(plan, planfile.plan_key("polydeukes.config.yaml", raw))
    assert planfile.decode_plan(data, planfile.plan_key("polydeukes.config.yaml", raw + b"\n")) is None
    assert planfile.decode_plan(data, planfile.plan_key("polydeukes.config.yml", raw)) is None
