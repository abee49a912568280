"""toolfaults.errors: HTTP-shaped exceptions keep their status code and Retry-After."""

from __future__ import annotations

import copy
import pickle

import pytest

from toolfaults import errors
from toolfaults.errors import APIError, RateLimitError, ServiceUnavailableError, api_error

EXPECTED_STATUS = {
    "BadRequestError": 400,
    "AuthenticationError": 401,
    "PermissionDeniedError": 403,
    "NotFoundError": 404,
    "RequestTimeoutError": 408,
    "RateLimitError": 429,
    "ServerError": 500,
    "BadGatewayError": 502,
    "ServiceUnavailableError": 503,
    "GatewayTimeoutError": 504,
    "OverloadedError": 529,
}


@pytest.mark.parametrize(("name", "status"), sorted(EXPECTED_STATUS.items()))
def test_each_class_has_its_status_code(name: str, status: int) -> None:
    cls = getattr(errors, name)
    err = cls("boom")
    assert issubclass(cls, APIError) and issubclass(cls, Exception)
    assert err.status_code == status
    assert err.retry_after is None
    assert err.message == "boom"
    assert name in errors.__all__


@pytest.mark.parametrize(("name", "status"), sorted(EXPECTED_STATUS.items()))
def test_api_error_maps_status_to_class(name: str, status: int) -> None:
    err = api_error(status, "msg", retry_after=3)
    assert type(err).__name__ == name
    assert err.status_code == status
    assert err.retry_after == 3.0
    assert isinstance(err.retry_after, float)


def test_api_error_unknown_status_is_base_class_with_that_status() -> None:
    err = api_error(418, "teapot")
    assert type(err) is APIError
    assert err.status_code == 418
    assert "418" in str(err) and "teapot" in str(err)


def test_retry_after_is_a_float_and_shows_in_str() -> None:
    err = RateLimitError("search API: too many requests", retry_after=2)
    assert err.retry_after == 2.0 and isinstance(err.retry_after, float)
    text = str(err)
    assert text.startswith("HTTP 429: search API: too many requests")
    assert "retry after 2 s" in text


def test_str_without_message_and_without_retry_after() -> None:
    err = errors.NotFoundError()
    assert str(err) == "HTTP 404"
    assert "retry" not in str(err)


def test_repr_names_class_message_status_and_retry_after() -> None:
    assert repr(ServiceUnavailableError("down")) == "ServiceUnavailableError('down', status_code=503)"
    assert repr(RateLimitError("slow down", retry_after=1.5)) == (
        "RateLimitError('slow down', status_code=429, retry_after=1.5)"
    )


def test_explicit_status_code_overrides_default() -> None:
    err = APIError("odd", status_code="503")  # type: ignore[arg-type]
    assert err.status_code == 503


def test_can_be_raised_and_caught_by_base_class() -> None:
    with pytest.raises(APIError) as info:
        raise RateLimitError("x", retry_after=4)
    assert info.value.status_code == 429 and info.value.retry_after == 4.0


def test_not_confused_with_builtin_connection_or_timeout_errors() -> None:
    # Retry code tells these apart: an HTTP 408 is not Python's TimeoutError.
    assert not isinstance(errors.RequestTimeoutError("x"), (TimeoutError, ConnectionError, OSError))


@pytest.mark.parametrize(
    "clone",
    [copy.copy, copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_copy_and_pickle_keep_every_attribute(clone) -> None:
    err = RateLimitError("quota", retry_after=2.5)
    err.endpoint = "/search"  # an attribute added by user code survives too
    again = clone(err)
    assert again is not err
    assert type(again) is RateLimitError
    assert (again.status_code, again.retry_after, again.message) == (429, 2.5, "quota")
    assert again.endpoint == "/search"
    assert str(again) == str(err) and repr(again) == repr(err)
    assert again.args == err.args


def test_pickle_keeps_an_overridden_status_code() -> None:
    err = APIError("gateway", status_code=599)
    again = pickle.loads(pickle.dumps(err))
    assert again.status_code == 599 and type(again) is APIError
