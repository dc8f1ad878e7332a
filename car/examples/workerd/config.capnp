# workerd's configuration for worker.js, bundled first with its dependencies into one module:
#   npx esbuild worker.js --bundle --format=esm --platform=neutral --main-fields=module,main \
#     --conditions=workerd,worker,browser --outfile=worker.bundle.js
#   npx workerd serve config.capnp            (listens on 127.0.0.1:8787)
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
