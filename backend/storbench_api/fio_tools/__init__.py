"""fio tools domain."""
