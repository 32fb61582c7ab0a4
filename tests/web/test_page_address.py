"""The page's address as the tables' links and the start banner give it to phones."""

from __future__ import annotations

import socket

import pytest

from server.web.address import for_other_machines, is_loopback, lan_address, page_address
from server.web.door import page_environment
from server.web.policy import ClientPlace
from skyjo_tui.webpage import IN_PAGE_ENV, PAGE_ENV, TABLE_ENV, TOUCH_ENV


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LOCALHOST", True),
        ("skyjo.localhost", True),
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("[::1]", True),
        ("192.168.1.20", False),
        ("[2001:db8::1]", False),
        ("play.example.org", False),
    ],
)
def test_loopback_names_only_this_machine(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_page_opened_on_this_machine_gives_phones_its_network_address() -> None:
    here = lan_address()
    mine = ClientPlace("127.0.0.1", "http", "localhost:8080")
    env = page_environment(mine, "kxqptw", everywhere=True)
    assert env[PAGE_ENV] == (f"http://{here}:8080" if here else "http://localhost:8080")
    assert env[TABLE_ENV] == "KXQPTW"
    assert for_other_machines("[::1]:8080") == (f"{here}:8080" if here else "[::1]:8080")
    # Listening on loopback only: another machine could not reach the network address.
    assert page_environment(mine, "", everywhere=False) == {
        IN_PAGE_ENV: "1",
        PAGE_ENV: "http://localhost:8080",
    }
    # Any other host is the one the browser used (a proxy's name, an address).
    theirs = ClientPlace("192.0.2.7", "https", "play.example.org")
    assert page_environment(theirs, "K<b>", everywhere=True) == {
        IN_PAGE_ENV: "1",
        PAGE_ENV: "https://play.example.org",
    }
    # A page on a touch screen says so: the app's prompts say what to tap.
    touch = page_environment(theirs, "", touch=True, everywhere=True)
    assert touch[TOUCH_ENV] == "1"


def test_the_start_banner_names_the_listening_host_else_this_machines_address() -> None:
    assert page_address("192.168.1.20", 8080) == "http://192.168.1.20:8080/"
    assert page_address("2001:db8::1", 8080) == "http://[2001:db8::1]:8080/"
    everywhere = page_address(None, 8080)
    assert everywhere in (f"http://{lan_address()}:8080/", f"http://{socket.gethostname()}:8080/")


def test_skyjo_server_gives_ssh_players_the_pages_address_for_their_tables_links() -> None:
    from server.cli import build_parser
    from server.ssh.options import ssh_options_from_args

    parser = build_parser()
    assert ssh_options_from_args(parser.parse_args([])).page == page_address(None, 8080)[:-1]
    chosen = parser.parse_args(["--host", "192.168.1.20", "--web-port", "8081"])
    assert ssh_options_from_args(chosen).page == "http://192.168.1.20:8081"
    assert ssh_options_from_args(parser.parse_args(["--no-web"])).page is None
    assert ssh_options_from_args(parser.parse_args(["--web-port", "0"])).page is None
