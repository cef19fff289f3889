# kepbot: a static binary on a distroless base, run as a non-root user, with
# the bbolt database on a volume.
#
#   docker build --build-arg VERSION=v1.4.0 --build-arg COMMIT=$(git rev-parse HEAD) -t kepbot .
#   docker buildx build --platform linux/amd64,linux/arm64 ...   (what the release workflow runs)
#
# The build stage runs on the builder's own platform and cross-compiles for
# the target (Go needs no emulator for that); the final stage only copies.
FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev
ARG COMMIT=unknown
# CONTRIBUTING.md's build command, with the version and commit `bot version` prints.
RUN CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} go build -trimpath \
    -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/bot ./cmd/bot
# distroless has no shell: make the volume folder here, owned by the runtime user.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bot /usr/local/bin/bot
COPY --from=build --chown=65532:65532 /out/data /data
ENV BOT_DB=/data/kepbot.db \
    BOT_HTTP_ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/bot"]
CMD ["serve"]
