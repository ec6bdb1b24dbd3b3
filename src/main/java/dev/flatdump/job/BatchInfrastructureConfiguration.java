package dev.flatdump.job;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.springframework.batch.core.configuration.support.JdbcDefaultBatchConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.DefaultTransactionStatus;

/**
 * The job repository: Spring Batch's JDBC store, so that a failed run can be restarted. By default
 * an embedded H2 file database under the output directory; any JDBC URL works when given. The
 * tables are created on first use.
 */
@Configuration(proxyBeanMethods = false)
class BatchInfrastructureConfiguration extends JdbcDefaultBatchConfiguration {

  @Bean(destroyMethod = "close")
  DataSource dataSource(JobRuntime runtime) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(runtime.jobRepositoryUrl());
    // a running step holds a connection through each of its chunks: one per local partition
    // thread, plus the manager's
    config.setMaximumPoolSize(PartitionedExport.MAX_LOCAL_THREADS + 2);
    config.setMinimumIdle(1);
    config.setPoolName("flatdump-job-repository");
    HikariDataSource ds = new HikariDataSource(config);
    createTablesIfMissing(ds, runtime.jobRepositoryUrl());
    return ds;
  }

  @Bean
  PlatformTransactionManager transactionManager(DataSource dataSource, JobRuntime runtime) {
    return runtime.jobRepositoryUrl().startsWith("jdbc:h2:file:")
        ? new SyncingH2TransactionManager(dataSource)
        : new DataSourceTransactionManager(dataSource);
  }

  /**
   * Makes every commit of an H2 file database durable. With {@code WRITE_DELAY=0}, H2 writes a
   * commit to its file before the commit returns, so a killed process loses nothing, but it does
   * not force the file to disk: only {@code CHECKPOINT SYNC} (and closing the database) does. This
   * runs it after every commit, which for this job is a few per shard.
   */
  static final class SyncingH2TransactionManager extends DataSourceTransactionManager {

    SyncingH2TransactionManager(DataSource dataSource) {
      super(dataSource);
    }

    @Override
    protected void doCommit(DefaultTransactionStatus status) {
      super.doCommit(status);
      Connection con =
          ((org.springframework.jdbc.datasource.JdbcTransactionObjectSupport)
                  status.getTransaction())
              .getConnectionHolder()
              .getConnection();
      try (Statement st = con.createStatement()) {
        st.execute("CHECKPOINT SYNC");
      } catch (SQLException e) {
        throw new TransactionSystemException(
            "committed, but could not force the job repository to disk (CHECKPOINT SYNC)", e);
      }
    }
  }

  private static void createTablesIfMissing(DataSource ds, String url) {
    try (Connection c = ds.getConnection()) {
      if (hasTable(c, "BATCH_JOB_INSTANCE") || hasTable(c, "batch_job_instance")) {
        return;
      }
      String product = c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
      String script =
          product.contains("postgres") ? "postgresql" : product.contains("h2") ? "h2" : product;
      new ResourceDatabasePopulator(
              new ClassPathResource("org/springframework/batch/core/schema-" + script + ".sql"))
          .populate(c);
    } catch (SQLException e) {
      throw new dev.flatdump.FlatdumpException(
          "cannot prepare the job repository at " + url + ": " + e.getMessage(), e);
    }
  }

  private static boolean hasTable(Connection c, String name) throws SQLException {
    try (ResultSet rs = c.getMetaData().getTables(null, null, name, null)) {
      return rs.next();
    }
  }
}
