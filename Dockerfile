# labelmock as a container: for CI services, compose files and Testcontainers (docs/container.md).
#   docker build -t labelmock .
#   docker run --rm -p 3000:3000 labelmock
# NODE_IMAGE swaps the base (the image test builds on a local Debian with Node, without a registry).
ARG NODE_IMAGE=node:24.22.3-bookworm-slim

# Build: the single-file server (scripts/bundle.mjs) and the files it reads at run time, nothing else.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund --no-update-notifier
COPY . .
RUN node scripts/copy-docs-assets.mjs \
  && node scripts/bundle.mjs \
  && mkdir -p /app/dist \
  && cp -r dist/labelmock.mjs dist/docs-assets /app/dist/ \
  && cp -r fixtures inspector docker-entrypoint.mjs /app/ \
  && node -e "const {name,version}=require('./package.json');require('fs').writeFileSync('/app/package.json',JSON.stringify({name,version,private:true}))"

# Run: Node and the bundle (no node_modules), as a user without privileges.
FROM ${NODE_IMAGE}
ARG VERSION=0.1.0
ARG SOURCE=
LABEL org.opencontainers.image.title="labelmock" \
      org.opencontainers.image.description="A stateful stand-in for the data-labeling task service (v1 and v2), with a test-control plane under /_mock" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
# /data: mount a volume there to keep state across restarts (it is then --data-dir); a named volume takes this
# folder's owner, so the server's user can write it.
RUN useradd --uid 10001 --no-create-home --home-dir /app --shell /usr/sbin/nologin labelmock \
  && mkdir /data && chown labelmock /data
COPY --from=build /app /app
# Every flag has its environment variable (labelmock --help). Inside a container the server listens on every
# address; the Host check then accepts only the names below (the loopback ones, and the service name a CI job or
# a compose file gives the container): add yours with LABELMOCK_ALLOWED_HOSTS.
ENV HOST=0.0.0.0 \
    PORT=3000 \
    LABELMOCK_ALLOWED_HOSTS=localhost,127.0.0.1,labelmock \
    LABELMOCK_LOG=json
USER 10001
WORKDIR /app
EXPOSE 3000
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/_mock/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/docker-entrypoint.mjs"]
