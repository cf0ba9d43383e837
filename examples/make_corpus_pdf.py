"""Generate the paper-style PDF of the OpenResearch example corpus.

Writes examples/corpus/paper-log-vs-queue-brokers.pdf: a two-column,
workshop-style paper with title, authors, abstract, running header and page
numbers. Uses only fpdf2 core fonts (Latin-1), so the text is English/ASCII.

    pip install fpdf2
    python examples/make_corpus_pdf.py

The paper, its authors and its measurements are fictional (an illustrative
example for testing PDF ingestion). Its related-work section paraphrases real
public sources named in examples/CORPUS_SOURCES.md.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).resolve().parent / "corpus" / "paper-log-vs-queue-brokers.pdf"

TITLE = "Log or Queue? Measuring Five Open-Source Message Brokers on Network-Attached Storage"
AUTHORS = "Elena Vasquez, Kenji Morimoto and Aisha Bello"
AFFIL = "Distributed Systems Group, Example Institute of Technology (fictional)"
VENUE = "Workshop on Streaming Systems (fictional), 2023"
URL = "https://papers.example.org/2023/log-vs-queue-brokers"
DATE = "2023-06-20"
RUNNING = "Vasquez et al. - Log or Queue? Five Message Brokers on Network-Attached Storage"

ABSTRACT = (
    "Published comparisons of message brokers are usually run by vendors on local NVMe "
    "storage, which is not how many teams deploy brokers in the cloud. We measure Apache "
    "Kafka, Apache Pulsar, RabbitMQ (quorum queues and streams), NATS JetStream and Redis "
    "Streams on three general-purpose virtual machines with network-attached block storage. "
    "With 1 KB messages and three replicas, Kafka reached the highest peak throughput at "
    "182 MB/s, followed by Pulsar at 151 MB/s. RabbitMQ streams reached 96 MB/s, while "
    "RabbitMQ quorum queues saturated at 31 MB/s. Tail latency at moderate load was within "
    "a factor of two across the log-based systems. We find that storage bandwidth, not broker "
    "architecture, dominates results on network-attached disks, and that the choice between "
    "a log and a queue should be driven by consumption semantics rather than throughput."
)

SECTIONS: list[tuple[str, list[str]]] = [
    ("1 Introduction", [
        "Teams choosing a message broker face a crowded field. Apache Kafka popularised the "
        "partitioned, replicated log; RabbitMQ is the reference implementation of AMQP 0-9-1 "
        "and added log-like streams in version 3.9; Apache Pulsar separates stateless brokers "
        "from Apache BookKeeper storage; NATS JetStream adds persistence to a minimal "
        "publish/subscribe server; and Redis Streams bring a log data structure to an "
        "in-memory store.",
        "Most public benchmarks of these systems are published by vendors and run on instances "
        "with local NVMe drives. Those results are valuable but do not describe the common case "
        "of brokers deployed on network-attached volumes with provisioned bandwidth. This paper "
        "asks how the systems compare in that setting, and whether the ranking reported by "
        "vendor benchmarks survives.",
    ]),
    ("2 Related Work", [
        "Dobbelaere and Sheykh Esmaili compared Kafka and RabbitMQ at DEBS 2017 and concluded "
        "that Kafka favours throughput through batching and sequential log writes, while "
        "RabbitMQ offers richer routing and lower latency at modest load. Our results on "
        "network-attached storage are consistent with that qualitative picture.",
        "A widely cited vendor benchmark from 2020 reported a peak of 605 MB/s for Kafka and "
        "305 MB/s for Pulsar on three brokers with local NVMe drives, and a Pulsar vendor later "
        "disputed the Pulsar figure. Because our hardware differs, our absolute numbers are not "
        "comparable with either; we compare rankings and ratios instead.",
    ]),
    ("3 Methodology", [
        "All brokers ran on three virtual machines with 8 vCPUs, 32 GB of memory and a "
        "network-attached volume provisioned for 250 MB/s and 12,000 IOPS. Four client machines "
        "ran the OpenMessaging Benchmark workers. Every workload used 1 KB messages, a "
        "replication factor of three (or the equivalent), 16 producers and 16 consumers.",
        "Versions were Kafka 3.5 in KRaft mode, Pulsar 3.0, RabbitMQ 3.12, NATS Server 2.9 and "
        "Redis 7.0. Redis ran as a primary with two asynchronous replicas and AOF with "
        "appendfsync everysec, since it has no synchronous replication. JetStream used R3 "
        "file-backed streams with asynchronous publishing. Each result is the median of five "
        "ten-minute runs after warm-up.",
        "We report peak throughput as the highest producer rate sustained with consumer lag "
        "below one second, and p99 end-to-end latency at a fixed load of 20 MB/s, a rate every "
        "system could sustain.",
    ]),
    ("4 Results", [
        "Table 1 summarises the results. Kafka reached 182 MB/s, close to the provisioned "
        "volume bandwidth once replication traffic is accounted for. Pulsar reached 151 MB/s; "
        "its journal and ledger writes shared one volume, which we consider the main handicap. "
        "RabbitMQ streams reached 96 MB/s and quorum queues 31 MB/s.",
        "NATS JetStream reached 58 MB/s with asynchronous publishing. Redis Streams reached "
        "104 MB/s, but with weaker durability than every other system because replication is "
        "asynchronous.",
        "At 20 MB/s, Redis Streams had the lowest p99 end-to-end latency at 2 ms. Among the "
        "replicated systems, RabbitMQ streams had the lowest p99 latency at 7 ms, followed by "
        "Pulsar at 9 ms, NATS JetStream at 11 ms and Kafka at 12 ms. RabbitMQ quorum queues "
        "showed a p99 of 15 ms.",
    ]),
    ("5 Discussion", [
        "On network-attached storage the gap between the fastest and slowest log-based system "
        "narrows to roughly a factor of three, compared with an order of magnitude in "
        "vendor benchmarks on local NVMe. Storage bandwidth is the dominant constraint, so "
        "architecture differences matter less than disk provisioning.",
        "Operational effort varied more than performance. Kafka in KRaft mode, RabbitMQ and "
        "NATS each ran as a single kind of process. Pulsar required brokers, bookies and a "
        "ZooKeeper ensemble, and accounted for most of our tuning time. We therefore "
        "recommend choosing between a log and a queue based on consumption semantics, and "
        "treating throughput as a constraint to verify rather than a ranking to optimise.",
    ]),
    ("6 Conclusion", [
        "Vendor benchmarks on local NVMe overstate the differences between brokers for teams "
        "deploying on network-attached volumes. All five systems exceeded 30 MB/s with three "
        "replicas. Teams should benchmark with their own storage and durability settings.",
        "Acknowledgements and artefacts: the benchmark configuration is described in this paper; "
        "this document is a fictional example produced for the OpenResearch test corpus.",
    ]),
]

TABLE = [
    ("System", "Peak MB/s", "p99 @20MB/s"),
    ("Kafka 3.5", "182", "12 ms"),
    ("Pulsar 3.0", "151", "9 ms"),
    ("RabbitMQ streams", "96", "7 ms"),
    ("RabbitMQ quorum", "31", "15 ms"),
    ("NATS JetStream", "58", "11 ms"),
    ("Redis Streams", "104", "2 ms"),
]


class Paper(FPDF):
    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font("Helvetica", "I", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 6, RUNNING, align="C")
        self.ln(8)
        self.set_text_color(0, 0, 0)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("Helvetica", "", 8)
        self.cell(0, 8, f"Page {self.page_no()} of {{nb}}", align="C")


def build(out: Path = OUT) -> Path:
    pdf = Paper(format="A4")
    pdf.set_title(TITLE)
    pdf.set_author(AUTHORS)
    pdf.set_subject(f"{VENUE}. {URL}")
    pdf.set_keywords("message broker, Kafka, RabbitMQ, Pulsar, NATS, Redis Streams, benchmark")
    pdf.set_creator("examples/make_corpus_pdf.py")
    pdf.set_creation_date(dt.datetime(2023, 6, 20, tzinfo=dt.UTC))
    pdf.set_margins(18, 18, 18)
    pdf.set_auto_page_break(True, margin=20)
    pdf.alias_nb_pages()
    pdf.add_page()

    # Title block (full width)
    pdf.set_font("Times", "B", 17)
    pdf.multi_cell(0, 8, TITLE, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font("Times", "", 11)
    pdf.multi_cell(0, 5, AUTHORS, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Times", "I", 10)
    pdf.multi_cell(0, 5, AFFIL, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 5, f"{VENUE}. Published {DATE}. {URL}", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)

    # Abstract (full width, indented)
    pdf.set_x(28)
    pdf.set_font("Times", "B", 10)
    pdf.multi_cell(154, 5, "Abstract", align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_x(28)
    pdf.set_font("Times", "", 10)
    pdf.multi_cell(154, 4.6, ABSTRACT, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(5)

    # Body in two columns
    with pdf.text_columns(ncols=2, gutter=7, text_align="L", line_height=1.15) as cols:
        for heading, paras in SECTIONS:
            pdf.set_font("Times", "B", 11)
            cols.write(heading + "\n")
            pdf.set_font("Times", "", 10)
            for p in paras:
                cols.write(p + "\n")
            if heading.startswith("4"):
                pdf.set_font("Courier", "", 8)
                cols.write("Table 1. 3 nodes, 1 KB messages, 3 replicas.\n")
                for row in TABLE:
                    cols.write(f"{row[0]:<17}{row[1]:>9}{row[2]:>12}\n")
                pdf.set_font("Times", "", 10)
            cols.write("\n")
        pdf.set_font("Times", "B", 11)
        cols.write("References\n")
        pdf.set_font("Times", "", 9)
        cols.write(
            "[1] P. Dobbelaere and K. Sheykh Esmaili. Kafka versus RabbitMQ: a comparative study "
            "of two industry reference publish/subscribe implementations. DEBS 2017.\n"
            "[2] Confluent. Benchmarking Apache Kafka, Apache Pulsar, and RabbitMQ: which is the "
            "fastest? Blog post, 2020.\n"
            "[3] StreamNative. Benchmarking Pulsar and Kafka: a more accurate perspective on "
            "Pulsar's performance. Blog post, 2020.\n"
            "[4] The OpenMessaging Benchmark framework. Open-source project.\n"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(out))
    return out


if __name__ == "__main__":
    print(build())
