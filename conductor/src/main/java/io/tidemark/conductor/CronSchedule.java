package io.tidemark.conductor;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

/** A five-field Unix cron expression, evaluated in UTC: when the next walker pass is due. */
final class CronSchedule {

    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    private final String expression;
    private final ExecutionTime times;

    private CronSchedule(String expression, ExecutionTime times) {
        this.expression = expression;
        this.times = times;
    }

    /** @throws IllegalArgumentException when the expression is not valid Unix cron */
    static CronSchedule parse(String expression) {
        try {
            var cron = PARSER.parse(expression.trim());
            cron.validate();
            return new CronSchedule(expression.trim(), ExecutionTime.forCron(cron));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + expression + "\" is not a five-field Unix cron expression: "
                    + e.getMessage(), e);
        }
    }

    /** The first time strictly after {@code after} that the expression names. */
    Optional<Instant> next(Instant after) {
        return times.nextExecution(ZonedDateTime.ofInstant(after, ZoneOffset.UTC)).map(ZonedDateTime::toInstant);
    }

    @Override
    public String toString() {
        return expression;
    }
}
