# workerd's configuration for the Worker bundled by build.js (worker.js, or node-crypto.js: the
# same with node:crypto's SHA-256), with its dependencies, into worker.bundle.js:
#   node build.js                      (or: node build.js node-crypto.js)
#   npx workerd serve config.capnp     (listens on 127.0.0.1:8787)
#   curl --data-binary @some.car http://127.0.0.1:8787/
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "car-verify", worker = .carVerify) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "car-verify") ],
);

const carVerify :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.bundle.js") ],
  compatibilityDate = "2026-11-01",
);
