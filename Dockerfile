# syntax=docker/dockerfile:1
# One image for every Tidemark service: `docker run tidemark <service> …` (populator, replay-streams,
# object-processor, bucket-processor, conductor, topics, status, dlq, config, rules).
# It carries the services jar only (no embedded broker or emulator; see docs/deploy.md).

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# The Maven cache mount keeps downloads between builds.
COPY . .
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -ntp -q -pl cli -am package -DskipTests \
    && cp cli/target/tidemark-services.jar /tidemark-services.jar

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="Tidemark" \
      org.opencontainers.image.description="S3 bucket lifecycle rules for SeaweedFS, applied by a Kafka pipeline" \
      org.opencontainers.image.licenses="Apache-2.0"
# curl for the health checks of docker-compose; nothing else is added to the base image.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 tidemark \
    && useradd --system --uid 10001 --gid tidemark --home-dir /var/lib/tidemark --create-home tidemark
COPY --from=build /tidemark-services.jar /opt/tidemark/tidemark-services.jar
COPY deploy/image/tidemark /usr/local/bin/tidemark
COPY LICENSE /opt/tidemark/LICENSE
# The JVM sizes its heap from the container's memory limit, not the host's.
ENV JAVA_TOOL_OPTIONS="-XX:+UseContainerSupport -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError" \
    TIDEMARK_MANAGEMENT_PORT=8080 \
    TIDEMARK_DATA_DIR=/var/lib/tidemark
USER 10001:10001
WORKDIR /var/lib/tidemark
EXPOSE 8080
ENTRYPOINT ["tidemark"]
CMD ["--help"]
