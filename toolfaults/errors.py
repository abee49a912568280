"""Exceptions that mocked tools raise, shaped like the errors of real HTTP APIs.

Real API clients raise exceptions that carry the HTTP ``status_code`` and, for
rate limits, how many seconds to wait (``retry_after``). Retry code decides what
to do from those two attributes, so the course's errors carry them too::

    >>> err = RateLimitError("search API: too many requests", retry_after=2.0)
    >>> err.status_code, err.retry_after
    (429, 2.0)

``ConnectionError`` and ``TimeoutError`` are Python's own built-ins; the course
uses them as they are.
"""

from __future__ import annotations

from typing import Any

from .language import say

__all__ = [
    "APIError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "RequestTimeoutError",
    "RateLimitError",
    "ServerError",
    "BadGatewayError",
    "ServiceUnavailableError",
    "GatewayTimeoutError",
    "OverloadedError",
    "api_error",
]


class APIError(Exception):
    """An error answered by a remote service, with its HTTP status code.

    Args:
        message: what went wrong, in words.
        status_code: the HTTP status (400-599).
        retry_after: seconds the service asked us to wait before trying again
            (the ``Retry-After`` header), or ``None``.
    """

    default_status: int = 500

    def __init__(
        self,
        message: str = "",
        *,
        status_code: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.status_code: int = self.default_status if status_code is None else int(status_code)
        self.retry_after: float | None = None if retry_after is None else float(retry_after)
        self.message = message or f"HTTP {self.status_code}"
        super().__init__(self.message)

    def __str__(self) -> str:
        text = f"HTTP {self.status_code}: {self.message}" if not self.message.startswith("HTTP ") else self.message
        if self.retry_after is not None:
            text += say(f" (retry after {self.retry_after:g} s)", f" (reintenta dentro de {self.retry_after:g} s)")
        return text

    def __repr__(self) -> str:
        extra = f", retry_after={self.retry_after!r}" if self.retry_after is not None else ""
        return f"{type(self).__name__}({self.message!r}, status_code={self.status_code}{extra})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep status_code, retry_after (and any attribute a subclass adds) through
        # copy.copy, copy.deepcopy and pickle; the default would call cls(message)
        # and lose the keyword-only arguments.
        return (_rebuild, (type(self), self.message, self.status_code, self.retry_after), dict(self.__dict__))


def _rebuild(cls: type[APIError], message: str, status_code: int, retry_after: float | None) -> APIError:
    err = cls.__new__(cls)
    APIError.__init__(err, message, status_code=status_code, retry_after=retry_after)
    return err


class BadRequestError(APIError):
    """400: the request itself is wrong; repeating it changes nothing."""

    default_status = 400


class AuthenticationError(APIError):
    """401: missing or wrong credentials; a person has to fix them."""

    default_status = 401


class PermissionDeniedError(APIError):
    """403: the credentials are valid but not allowed to do this."""

    default_status = 403


class NotFoundError(APIError):
    """404: the thing asked for does not exist."""

    default_status = 404


class RequestTimeoutError(APIError):
    """408: the server gave up waiting for the request; worth retrying."""

    default_status = 408


class RateLimitError(APIError):
    """429: too many requests; wait ``retry_after`` seconds when it is given."""

    default_status = 429


class ServerError(APIError):
    """500: the service failed internally; often passes."""

    default_status = 500


class BadGatewayError(APIError):
    """502: a proxy in front of the service got a bad answer."""

    default_status = 502


class ServiceUnavailableError(APIError):
    """503: the service is down or overloaded for now."""

    default_status = 503


class GatewayTimeoutError(APIError):
    """504: a proxy in front of the service timed out."""

    default_status = 504


class OverloadedError(APIError):
    """529: Anthropic's 'overloaded' status; retry later."""

    default_status = 529


_BY_STATUS: dict[int, type[APIError]] = {
    cls.default_status: cls
    for cls in (
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        RequestTimeoutError,
        RateLimitError,
        ServerError,
        BadGatewayError,
        ServiceUnavailableError,
        GatewayTimeoutError,
        OverloadedError,
    )
}


def api_error(status_code: int, message: str = "", *, retry_after: float | None = None) -> APIError:
    """Build the :class:`APIError` subclass that matches ``status_code``.

    >>> api_error(503, "weather service down")
    ServiceUnavailableError('weather service down', status_code=503)
    >>> type(api_error(418)).__name__
    'APIError'
    """
    cls = _BY_STATUS.get(int(status_code), APIError)
    return cls(message, status_code=status_code, retry_after=retry_after)
