module github.com/arcade/arcade

go 1.26.8
