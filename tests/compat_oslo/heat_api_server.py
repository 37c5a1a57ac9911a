"""Heat 27.0.1's heat-api, run by the oracle's interpreter, served on a loopback port.

    <oracle python> heat_api_server.py <heat.conf>

Prints ``listening <port>`` once it serves. It talks to its engine over oslo.messaging
on heat.conf's ``transport_url`` as heat-api always does; no heat-engine runs, so
keel-bridge answers. This file is never imported by the test suite.
"""

import socketserver
import sys
from wsgiref import simple_server


class ThreadingServer(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True


class QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


def main():
    conf_path = sys.argv[1]
    sys.argv = ["heat-api", "--config-file", conf_path]
    from heat.api.openstack import wsgi

    application = wsgi.init_application()
    server = simple_server.make_server(
        "127.0.0.1", 0, application, server_class=ThreadingServer, handler_class=QuietHandler
    )
    print(f"listening {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
