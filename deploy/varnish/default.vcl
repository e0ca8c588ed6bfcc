vcl 4.1;

# An example of the storefront's Varnish configuration: one storefront node on 127.0.0.1:3000, purges from this
# machine alone. Copy it beside storefront.vcl (e.g. /etc/varnish/), name your nodes and purgers, and start
#   varnishd -a :80 -f /etc/varnish/default.vcl -s malloc,1g
# (`npm run varnish -- --backend HOST:PORT --listen HOST:PORT` writes the same file for you and runs varnishd in
# the foreground). Several nodes: declare each as a backend and put them in a `directors` round robin in
# vcl_init, setting `req.backend_hint` in a vcl_recv of your own before the include's.

backend storefront {
    .host = "127.0.0.1";
    .port = "3000";
    # The storefront answers /readyz 200 once its catalog is in memory; while it does not, cached pages are
    # served for as long as they are kept (a day past their lifetime) rather than an error. Sick only after four
    # of five probes fail, each given 5 s: a node slow under a crowd is still the one to fetch from.
    .probe = {
        .url = "/readyz";
        .interval = 3s;
        .timeout = 5s;
        .window = 5;
        .threshold = 2;
    }
    .first_byte_timeout = 30s;
}

# Who may purge: each storefront node's address (they purge by tag on every catalog change,
# SHARED_CACHE_PURGE_URLS), and nobody else.
acl storefront_purgers {
    "localhost";
    "127.0.0.1";
    "::1";
}

include "storefront.vcl";
