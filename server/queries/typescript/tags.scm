; placeholder until this language's queries land
